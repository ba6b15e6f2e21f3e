import { describe, expect, it } from 'vitest';
import { clipText, hasInvisible, invisibleName, MAX_MARKS, revealPieces, revealText } from './reveal';

describe('revealText: every invisible or reordering character is shown as a token', () => {
  const rows: Array<[string, string, string]> = [
    ['a right-to-left override inside quotes', "echo 'abc\u202Edef'", "echo 'abc⟨U+202E⟩def'"],
    ['the arabic letter mark', 'a\u061Cb', 'a⟨U+061C⟩b'],
    ['left-to-right and right-to-left marks', '\u200Ex\u200F', '⟨U+200E⟩x⟨U+200F⟩'],
    ['embeddings, overrides and the pop', '\u202A\u202B\u202C\u202D', '⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩'],
    ['isolates', '\u2066\u2067\u2068\u2069', '⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩'],
    [
      'zero-width space, non-joiner and joiner between letters',
      'r\u200Bm\u200C-\u200Dr',
      'r⟨U+200B⟩m⟨U+200C⟩-⟨U+200D⟩r',
    ],
    [
      'word joiner and the invisible operators',
      '\u2060\u2061\u2062\u2063\u2064',
      '⟨U+2060⟩⟨U+2061⟩⟨U+2062⟩⟨U+2063⟩⟨U+2064⟩',
    ],
    ['a byte order mark', '\uFEFFls', '⟨U+FEFF⟩ls'],
    ['a soft hyphen', 'pass\u00ADwd', 'pass⟨U+00AD⟩wd'],
    [
      'C0 controls (escape, carriage return, NUL, backspace)',
      'a\u001B[2Jb\rc\u0000d\u0008',
      'a⟨U+001B⟩[2Jb⟨U+000D⟩c⟨U+0000⟩d⟨U+0008⟩',
    ],
    ['DEL and C1 controls', '\u007F\u0085\u009B', '⟨U+007F⟩⟨U+0085⟩⟨U+009B⟩'],
    ['line and paragraph separators', 'a\u2028b\u2029', 'a⟨U+2028⟩b⟨U+2029⟩'],
    ['lone surrogates, high and low', 'x\uD800y\uDC00', 'x⟨U+D800⟩y⟨U+DC00⟩'],
    ['tag characters (ASCII smuggling)', 'ok\u{E0069}\u{E0064}', 'ok⟨U+E0069⟩⟨U+E0064⟩'],
    ['Hangul fillers', '\u3164\u115F\uFFA0', '⟨U+3164⟩⟨U+115F⟩⟨U+FFA0⟩'],
    ['a variation selector after a letter', 'a\uFE0F', 'a⟨U+FE0F⟩'],
    ['a joiner between letters and an emoji', 'a\u200D😀', 'a⟨U+200D⟩😀'],
    ['tab and newline are kept', 'a\tb\nc', 'a\tb\nc'],
    ['plain text, spaces and other scripts are kept', 'ls -la / שלום 😀 ü', 'ls -la / שלום 😀 ü'],
    ['an emoji presentation selector is kept', '❤️ 1️⃣', '❤️ 1️⃣'],
    ['an emoji zero-width-joiner sequence is kept', '👩‍💻 👩🏽‍💻 ❤️‍🔥', '👩‍💻 👩🏽‍💻 ❤️‍🔥'],
    ['a surrogate pair is not split into marks', '\uD83D\uDE00', '😀'],
    ['the empty string', '', ''],
  ];
  it.each(rows)('%s', (_name, input, expected) => {
    expect(revealText(input)).toBe(expected);
    expect(hasInvisible(input)).toBe(input !== expected);
  });
});

describe('revealPieces', () => {
  it('gives text and marks in order, each mark with its name', () => {
    expect(revealPieces("echo 'a\u202Eb'")).toEqual([
      { kind: 'text', text: "echo 'a" },
      { kind: 'mark', code: 0x202e, token: '⟨U+202E⟩', name: 'RIGHT-TO-LEFT OVERRIDE' },
      { kind: 'text', text: "b'" },
    ]);
  });

  it('gives text without invisible characters as one piece (and nothing for the empty string)', () => {
    expect(revealPieces('ls -la')).toEqual([{ kind: 'text', text: 'ls -la' }]);
    expect(revealPieces('')).toEqual([]);
  });

  it('inlines marks past the cap as plain tokens, so the number of elements stays bounded', () => {
    const text = 'x\u200B'.repeat(MAX_MARKS + 10);
    const pieces = revealPieces(text);
    expect(pieces.filter((p) => p.kind === 'mark')).toHaveLength(MAX_MARKS);
    expect(pieces.length).toBeLessThanOrEqual(2 * MAX_MARKS + 1);
    expect(pieces.map((p) => (p.kind === 'text' ? p.text : p.token)).join('')).toBe(revealText(text));
    expect(revealText(text)).not.toContain('\u200B');
  });
});

describe('invisibleName', () => {
  it.each([
    [0x202e, 'RIGHT-TO-LEFT OVERRIDE'],
    [0x200b, 'ZERO WIDTH SPACE'],
    [0xfe0f, 'VARIATION SELECTOR-16'],
    [0xe0100, 'VARIATION SELECTOR-17'],
    [0xe0041, 'TAG "A"'],
    [0xd800, 'LONE SURROGATE'],
    [0x01, 'CONTROL CHARACTER'],
    [0x9b, 'CONTROL CHARACTER'],
    [0x600, 'FORMAT CHARACTER'],
  ])('%#: code %i is named %s', (code, name) => {
    expect(invisibleName(code)).toBe(name);
  });
});

describe('clipText', () => {
  it('never ends on half a surrogate pair', () => {
    expect(clipText('ab😀', 3)).toBe('ab');
    expect(clipText('ab😀', 4)).toBe('ab😀');
    expect(clipText('abcdef', 3)).toBe('abc');
    expect(hasInvisible(clipText('a😀😀', 2))).toBe(false);
  });
});
