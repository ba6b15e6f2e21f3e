// Invisible characters made visible: a displayed command (or any text a human approves on) is cut
// into plain text and marks, one mark per character that would otherwise be invisible or would
// rearrange what is around it (bidi controls such as U+202E, zero-width characters, other format
// and control characters, lone surrogates), so the screen shows what will run, in its real order.
// Pure: every display site renders these pieces (components/ui/revealed.tsx), or the string form
// where only a string fits (a title attribute).

export interface RevealedText {
  kind: 'text';
  text: string;
}

export interface RevealedMark {
  kind: 'mark';
  /** The code point (a lone surrogate's own code unit). */
  code: number;
  /** What is shown instead of it, e.g. `⟨U+202E⟩`. */
  token: string;
  /** Its Unicode name (or its kind), e.g. `RIGHT-TO-LEFT OVERRIDE`. */
  name: string;
}

export type RevealedPiece = RevealedText | RevealedMark;

/**
 * Control (Cc), format (Cf: bidi controls, zero-width characters, the soft hyphen, tags...),
 * lone surrogates (Cs), line and paragraph separators (Zl, Zp) and the rest of the default-ignorable
 * code points (Hangul fillers, variation selectors, U+2065...). Tab and newline are kept as they are.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;
const KEPT = new Set([0x09, 0x0a]);

/** Past this many marks in one text the rest are inlined as plain tokens: still visible, and the DOM stays bounded. */
export const MAX_MARKS = 500;

const NAMES: Record<number, string> = {
  0x00: 'NULL',
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0xad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
};

/** The Unicode name of an invisible character, or its kind when it has no entry here. */
export function invisibleName(code: number): string {
  const known = NAMES[code];
  if (known) return known;
  if (code >= 0xfe00 && code <= 0xfe0f) return `VARIATION SELECTOR-${code - 0xfe00 + 1}`;
  if (code >= 0xe0100 && code <= 0xe01ef) return `VARIATION SELECTOR-${code - 0xe0100 + 17}`;
  // Tags spell ASCII that no one sees ("ASCII smuggling"): say which letter.
  if (code >= 0xe0020 && code <= 0xe007e) return `TAG ${JSON.stringify(String.fromCharCode(code - 0xe0000))}`;
  if (code >= 0xd800 && code <= 0xdfff) return 'LONE SURROGATE';
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'CONTROL CHARACTER';
  return 'FORMAT CHARACTER';
}

export function invisibleToken(code: number): string {
  return `⟨U+${code.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

function codePointBefore(text: string, at: number): number | undefined {
  if (at <= 0) return undefined;
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.codePointAt(at - 2);
  }
  return low;
}

const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const MODIFIER = /^\p{Emoji_Modifier}$/u;
const isPictographic = (code: number | undefined) =>
  code !== undefined && PICTOGRAPHIC.test(String.fromCodePoint(code));

/**
 * An emoji's own joiner or presentation selector (❤️, 👩‍💻, 1️⃣) draws as part of a visible glyph:
 * left alone, so ordinary emoji stay readable. Anywhere else the same characters are marked.
 */
function partOfEmoji(text: string, at: number, code: number): boolean {
  const before = codePointBefore(text, at);
  if (code === 0xfe0f || code === 0xfe0e) return isPictographic(before) || text.codePointAt(at + 1) === 0x20e3;
  if (code !== 0x200d || before === undefined) return false;
  const joinsAfter = isPictographic(before) || before === 0xfe0f || MODIFIER.test(String.fromCodePoint(before));
  return joinsAfter && isPictographic(text.codePointAt(at + 1));
}

/** The pieces of `text`: concatenating each text, and each mark's token, gives the revealed string. */
export function revealPieces(text: string, maxMarks = MAX_MARKS): RevealedPiece[] {
  const pieces: RevealedPiece[] = [];
  let plain = '';
  let at = 0;
  let marks = 0;
  for (const match of text.matchAll(INVISIBLE)) {
    const code = match[0].codePointAt(0)!;
    if (KEPT.has(code) || partOfEmoji(text, match.index, code)) continue;
    plain += text.slice(at, match.index);
    at = match.index + match[0].length;
    const token = invisibleToken(code);
    if (marks >= maxMarks) {
      plain += token;
      continue;
    }
    if (plain) pieces.push({ kind: 'text', text: plain });
    plain = '';
    pieces.push({ kind: 'mark', code, token, name: invisibleName(code) });
    marks += 1;
  }
  plain += text.slice(at);
  if (plain) pieces.push({ kind: 'text', text: plain });
  return pieces;
}

/** `text` with every invisible character replaced by its token, for places that take a string. */
export function revealText(text: string): string {
  return revealPieces(text, 0)
    .map((p) => (p.kind === 'text' ? p.text : p.token))
    .join('');
}

export function hasInvisible(text: string): boolean {
  return revealPieces(text, 1).some((p) => p.kind === 'mark');
}

/**
 * The first `max` UTF-16 units of `text`, never ending on half a surrogate pair (which would then
 * be revealed as a lone surrogate the text does not contain).
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
