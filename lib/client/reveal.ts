// What a human approves on (a command, parameters, a pattern) is cut into plain text and marks, so
// the screen shows what will run, in its real order, and nothing in it passes for something else:
// - a character that would be invisible or would rearrange what is around it (bidi controls such as
//   U+202E, zero-width characters, other format and control characters, lone surrogates), or that
//   looks like a plain space but is not one (U+00A0 NO-BREAK SPACE and the other space separators,
//   U+2800 BRAILLE PATTERN BLANK: a shell does not split words there, so `rm<NBSP>-rf` is one word
//   that reads as two), is shown as a token such as ⟨U+202E⟩;
// - in a word (anything between white space: `/etc/pаsswd`, `сор.com`) that mixes Latin letters with
//   Cyrillic, Greek, Armenian or Cherokee ones (`paypal` spelt with a Cyrillic а), or whose letters
//   all pass for Latin ones (`сор`, all Cyrillic, reads as `cop`), each non-Latin letter is shown
//   followed by its code point, `а⟨U+0430⟩`, so a look-alike cannot pass for the Latin word. A word
//   in one script that does not read as Latin (Russian, Greek) is left as it is.
// The names and the look-alike table: invisible-names.ts, lookalikes.ts.
// Pure: every display site renders these pieces (components/ui/revealed.tsx), or the string form
// where only a string fits (a title attribute).

import { invisibleName, invisibleToken } from './invisible-names';
import { FOREIGN, isForeign, LATIN, lookalikeName, readsAsLatin } from './lookalikes';

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

export interface RevealedLookalike {
  kind: 'lookalike';
  /** The code point of a non-Latin letter in a word that also holds Latin letters. */
  code: number;
  /** What is shown instead of it: the letter, then its code point, e.g. `а⟨U+0430⟩`. */
  token: string;
  /** What it is, e.g. `CYRILLIC SMALL LETTER A, looks like Latin a` or `Greek letter in a Latin word`. */
  name: string;
}

export type RevealedPiece = RevealedText | RevealedMark | RevealedLookalike;

export { invisibleName, invisibleToken } from './invisible-names';
export { lookalikeName } from './lookalikes';

/**
 * Control (Cc), format (Cf: bidi controls, zero-width characters, the soft hyphen, tags...),
 * lone surrogates (Cs), line and paragraph separators (Zl, Zp), space separators other than the
 * plain space (Zs), the braille blank and the rest of the default-ignorable code points (Hangul
 * fillers, variation selectors, U+2065...). Tab, newline and the plain space are kept as they are.
 */
const INVISIBLE = /(?![\t\n ])[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\p{Default_Ignorable_Code_Point}\u2800]/u;
/**
 * A word: a maximal run of characters that are neither white space nor marked, so `/etc/а/passwd`
 * or `сор.com` is one word (a marked character ends it).
 */
const WORD = /(?:(?!\p{Default_Ignorable_Code_Point}|\u2800)[^\s\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}])+/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, 'gu');
/** Invisible characters and words, in the order of the text; group 1 is a word. */
const INVISIBLE_OR_WORD = new RegExp(`${INVISIBLE.source}|(${WORD.source})`, 'gu');
/**
 * Past this many marks (of either kind) in one text the rest are inlined as plain tokens: still
 * visible, and the DOM stays bounded.
 */
export const MAX_MARKS = 500;

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

/**
 * Calls `visit` for every character to mark, in the order of the text, until it returns false.
 * Words are looked at only when the text holds a letter of a look-alike script.
 */
function scan(text: string, visit: (index: number, length: number, code: number, lookalike: boolean) => boolean): void {
  for (const match of text.matchAll(FOREIGN.test(text) ? INVISIBLE_OR_WORD : INVISIBLE_ALL)) {
    const word = match[1];
    if (word === undefined) {
      const code = match[0].codePointAt(0)!;
      if (!partOfEmoji(text, match.index, code) && !visit(match.index, match[0].length, code, false)) return;
    } else if (FOREIGN.test(word) && (LATIN.test(word) || readsAsLatin(word))) {
      for (let at = match.index, end = at + word.length; at < end;) {
        const code = text.codePointAt(at)!;
        const length = code > 0xffff ? 2 : 1;
        if (isForeign(code) && !visit(at, length, code, true)) return;
        at += length;
      }
    }
  }
}

/** The pieces of `text`: concatenating each text, and each mark's token, gives the revealed string. */
export function revealPieces(text: string, maxMarks = MAX_MARKS): RevealedPiece[] {
  const pieces: RevealedPiece[] = [];
  // Hostile text can hold a mark every other character: each distinct token is made once, and
  // past the cap the rest is built as one string.
  const tokens = new Map<number, string>();
  let marks = 0;
  let rest = '';
  let at = 0;
  scan(text, (index, length, code, lookalike) => {
    let token = tokens.get(code);
    if (token === undefined) tokens.set(code, (token = invisibleToken(code)));
    // A look-alike letter stays, followed by its token.
    const kept = lookalike ? index + length : index;
    if (marks >= maxMarks) {
      rest += text.slice(at, kept) + token;
    } else {
      if (index > at) pieces.push({ kind: 'text', text: text.slice(at, index) });
      pieces.push(
        lookalike
          ? { kind: 'lookalike', code, token: text.slice(index, kept) + token, name: lookalikeName(code) }
          : { kind: 'mark', code, token, name: invisibleName(code) },
      );
      marks += 1;
    }
    at = index + length;
    return true;
  });
  rest += text.slice(at);
  if (rest) pieces.push({ kind: 'text', text: rest });
  return pieces;
}

/** `text` with every marked character replaced by its token, for places that take a string. */
export function revealText(text: string): string {
  return revealPieces(text, 0)
    .map((p) => (p.kind === 'text' ? p.text : p.token))
    .join('');
}

/**
 * Whether anything in `text` would be marked: an invisible or blank-looking character, or a
 * look-alike letter in a Latin word. Where the text itself is shown unmarked (a text field), show
 * it revealed beside it.
 */
export function hasInvisible(text: string): boolean {
  let found = false;
  scan(text, () => {
    found = true;
    return false;
  });
  return found;
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
