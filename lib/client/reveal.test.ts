import { describe, expect, it } from 'vitest';
import { clipText, hasInvisible, invisibleName, lookalikeName, MAX_MARKS, revealPieces, revealText } from './reveal';

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
    ['a NO-BREAK SPACE, which a shell does not split words at', 'rm\u00A0-rf /', 'rm⟨U+00A0⟩-rf /'],
    ['the braille pattern blank', 'ls\u2800-la', 'ls⟨U+2800⟩-la'],
    ['an ideographic space', 'cat\u3000/etc/passwd', 'cat⟨U+3000⟩/etc/passwd'],
    ['the Ogham space mark, narrow and mathematical spaces', '\u1680\u202F\u205F', '⟨U+1680⟩⟨U+202F⟩⟨U+205F⟩'],
    [
      'the typographic spaces U+2000 to U+200A',
      '\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A',
      '⟨U+2000⟩⟨U+2001⟩⟨U+2002⟩⟨U+2003⟩⟨U+2004⟩⟨U+2005⟩⟨U+2006⟩⟨U+2007⟩⟨U+2008⟩⟨U+2009⟩⟨U+200A⟩',
    ],
    ['a Cyrillic а in a Latin path, at that letter only', '/etc/p\u0430sswd', '/etc/p\u0430⟨U+0430⟩sswd'],
    ['Cyrillic р and а in a host name', 'curl \u0440\u0430ypal.com', 'curl \u0440⟨U+0440⟩\u0430⟨U+0430⟩ypal.com'],
    ['a Greek omicron in a Latin word', 'g\u03BFogle.com', 'g\u03BF⟨U+03BF⟩ogle.com'],
    ['a Cyrillic letter in a word with digits', 'p4\u0455\u0455w0rd', 'p4\u0455⟨U+0455⟩\u0455⟨U+0455⟩w0rd'],
    ['a Latin letter in a Cyrillic word marks the Cyrillic ones', '\u043Fp', '\u043F⟨U+043F⟩p'],
    ['a zero-width space does not hide a look-alike after it', 'p\u200B\u0430ss', 'p⟨U+200B⟩\u0430⟨U+0430⟩ss'],
    ['an all-Cyrillic word is kept', 'echo привет', 'echo привет'],
    ['an all-Greek word is kept', 'echo καλημέρα', 'echo καλημέρα'],
    ['Cyrillic, Greek and Latin words side by side are kept', 'привет hello γεια 42', 'привет hello γεια 42'],
    [
      'a Cyrillic name with a Latin extension is one mixed word',
      'файл2.txt',
      'ф⟨U+0444⟩а⟨U+0430⟩й⟨U+0439⟩л⟨U+043B⟩2.txt',
    ],
    ['a Cyrillic word alone in a Latin path', 'cat /etc/\u0430/passwd', 'cat /etc/\u0430⟨U+0430⟩/passwd'],
    [
      'a host name all in Cyrillic letters that pass for Latin',
      'curl \u0441\u043E\u0440.com',
      'curl \u0441⟨U+0441⟩\u043E⟨U+043E⟩\u0440⟨U+0440⟩.com',
    ],
    [
      'a word all of letters that pass for Latin',
      'ping \u0441\u043E\u0440',
      'ping \u0441⟨U+0441⟩\u043E⟨U+043E⟩\u0440⟨U+0440⟩',
    ],
    ['Russian words with punctuation are kept', 'echo «привет, мир»!', 'echo «привет, мир»!'],
    ['digits and Latin alone are kept', 'x86_64 abc123 0755 café', 'x86_64 abc123 0755 café'],
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

describe('revealPieces: blank-looking characters and look-alike letters', () => {
  it('names a NO-BREAK SPACE, the braille blank and an ideographic space', () => {
    expect(revealPieces('rm\u00A0-rf\u2800x\u3000y').filter((p) => p.kind === 'mark')).toEqual([
      { kind: 'mark', code: 0xa0, token: '⟨U+00A0⟩', name: 'NO-BREAK SPACE' },
      { kind: 'mark', code: 0x2800, token: '⟨U+2800⟩', name: 'BRAILLE PATTERN BLANK' },
      { kind: 'mark', code: 0x3000, token: '⟨U+3000⟩', name: 'IDEOGRAPHIC SPACE' },
    ]);
  });

  it('marks every space separator but the plain space, each with its own name', () => {
    const spaces = Array.from({ length: 0x3001 }, (_, code) => String.fromCodePoint(code)).filter((c) =>
      /\p{Zs}/u.test(c),
    );
    expect(spaces).toHaveLength(17);
    for (const space of spaces.slice(1)) {
      expect(revealPieces(space)).toEqual([
        {
          kind: 'mark',
          code: space.codePointAt(0),
          token: revealText(space),
          name: expect.stringMatching(/SPACE|QUAD/),
        },
      ]);
    }
    expect(revealPieces(' ')).toEqual([{ kind: 'text', text: ' ' }]);
  });

  it('keeps the look-alike letter readable, followed by its code point and named for what it passes for', () => {
    expect(revealPieces('cat /etc/p\u0430sswd')).toEqual([
      { kind: 'text', text: 'cat /etc/p' },
      {
        kind: 'lookalike',
        code: 0x430,
        token: '\u0430⟨U+0430⟩',
        name: 'CYRILLIC SMALL LETTER A, looks like Latin a',
      },
      { kind: 'text', text: 'sswd' },
    ]);
  });

  it('leaves words in one script alone, Latin, Cyrillic or Greek', () => {
    for (const text of ['ls -la', 'привет мир', 'καλημέρα κόσμε', 'Ελλάδα 2024', 'москва123']) {
      expect(revealPieces(text)).toEqual([{ kind: 'text', text }]);
      expect(hasInvisible(text)).toBe(false);
    }
  });

  it('counts look-alike marks against the cap, with invisible ones', () => {
    const text = 'p\u0430\u00A0'.repeat(MAX_MARKS);
    const pieces = revealPieces(text);
    expect(pieces.filter((p) => p.kind !== 'text')).toHaveLength(MAX_MARKS);
    expect(pieces.filter((p) => p.kind === 'lookalike')).toHaveLength(MAX_MARKS / 2);
    expect(pieces.length).toBeLessThanOrEqual(2 * MAX_MARKS + 1);
    const shown = pieces.map((p) => (p.kind === 'text' ? p.text : p.token)).join('');
    expect(shown).toBe(revealText(text));
    expect(shown).not.toContain('\u00A0');
    expect(shown.split('\u0430⟨U+0430⟩')).toHaveLength(MAX_MARKS + 1);
  });

  it.each([
    ['a megabyte of short mixed words', 'p\u0430yp\u0430l\u00A0g\u03BFogle '.repeat(75_000)],
    ['one mixed word of a megabyte', 'p\u0430'.repeat(500_000)],
  ])('returns promptly on %s, with the marks still bounded', (_name, text) => {
    expect(text.length).toBeGreaterThanOrEqual(1_000_000);
    // A generous budget for each call (a busy CI machine), far from a frozen tab.
    const timed = <T>(run: () => T): T => {
      const started = performance.now();
      const result = run();
      expect(performance.now() - started).toBeLessThan(2000);
      return result;
    };
    const pieces = timed(() => revealPieces(text));
    const shown = timed(() => revealText(text));
    const found = timed(() => hasInvisible(text));
    expect(pieces.filter((p) => p.kind !== 'text')).toHaveLength(MAX_MARKS);
    expect(pieces.length).toBeLessThanOrEqual(2 * MAX_MARKS + 1);
    expect(shown).not.toContain('\u00A0');
    expect(shown).toContain('\u0430⟨U+0430⟩');
    expect(found).toBe(true);
  });
});

describe('lookalikeName', () => {
  it.each([
    [0x0430, 'CYRILLIC SMALL LETTER A, looks like Latin a'],
    [0x0420, 'CYRILLIC CAPITAL LETTER ER, looks like Latin P'],
    [0x03bf, 'GREEK SMALL LETTER OMICRON, looks like Latin o'],
    [0x0585, 'ARMENIAN SMALL LETTER OH, looks like Latin o'],
    [0x0436, 'Cyrillic letter in a Latin word'],
    [0x03bb, 'Greek letter in a Latin word'],
    [0x13a0, 'Cherokee letter in a Latin word'],
  ])('%#: code %i is named %s', (code, name) => {
    expect(lookalikeName(code)).toBe(name);
  });
});

describe('invisibleName', () => {
  it.each([
    [0xa0, 'NO-BREAK SPACE'],
    [0x2003, 'EM SPACE'],
    [0x202f, 'NARROW NO-BREAK SPACE'],
    [0x2800, 'BRAILLE PATTERN BLANK'],
    [0x3000, 'IDEOGRAPHIC SPACE'],
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
