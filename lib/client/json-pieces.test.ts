import { describe, expect, it } from 'vitest';
import { jsonPieces, type JsonPiece } from './json-pieces';

/** The text as shown with every long value expanded. */
const expanded = (pieces: JsonPiece[]) => pieces.map((p) => (p.kind === 'text' ? p.text : p.full + p.after)).join('');
/** The text as shown with every long value shortened. */
const collapsed = (pieces: JsonPiece[]) => pieces.map((p) => (p.kind === 'text' ? p.text : p.short + p.after)).join('');
const longOnes = (pieces: JsonPiece[]) => pieces.filter((p) => p.kind === 'long');

describe('jsonPieces', () => {
  it.each([
    ['an object of short values', { path: 'a.txt', mode: 1, ok: true, none: null }],
    ['an array', ['a', 2, [3], { b: 'c' }]],
    ['a top-level string', 'hello'],
    ['a number', 42],
    ['an empty object', {}],
  ])('keeps %s as one text piece, exactly the pretty JSON', (_name, value) => {
    expect(jsonPieces(value, 10)).toEqual([{ kind: 'text', text: JSON.stringify(value, null, 2) }]);
  });

  it('shortens a long value on its own: the short value after it stays visible', () => {
    const value = { path: 'notes.md', old: 'x'.repeat(50), new: 'short' };
    const pieces = jsonPieces(value, 10);
    expect(longOnes(pieces)).toEqual([
      {
        kind: 'long',
        path: 'old',
        full: JSON.stringify(value.old),
        short: `"${'x'.repeat(10)}…"`,
        length: 50,
        after: ',',
      },
    ]);
    expect(collapsed(pieces)).toBe(`{\n  "path": "notes.md",\n  "old": "xxxxxxxxxx…",\n  "new": "short"\n}`);
  });

  it('expanding every long value gives back JSON.stringify(value, null, 2)', () => {
    const value = {
      a: 'y'.repeat(30),
      list: ['z'.repeat(12), 'ok', { deep: 'w'.repeat(11) }],
      'odd key': 'v'.repeat(20),
      n: [1, 2],
    };
    const pieces = jsonPieces(value, 10);
    expect(expanded(pieces)).toBe(JSON.stringify(value, null, 2));
    expect(longOnes(pieces).map((p) => p.kind === 'long' && p.path)).toEqual([
      'a',
      'list[0]',
      'list[2].deep',
      '"odd key"',
    ]);
  });

  it('takes the comma after a long value into the value (for the toggle to end the line); the last one has none', () => {
    const pieces = jsonPieces({ a: 'x'.repeat(20), b: 'y'.repeat(20) }, 10);
    expect(pieces.map((p) => (p.kind === 'text' ? p.text : p.after))).toEqual([
      '{\n  "a": ',
      ',',
      '\n  "b": ',
      '',
      '\n}',
    ]);
  });

  it('a value exactly at the limit is shown in full; one character more is shortened', () => {
    expect(longOnes(jsonPieces({ v: 'a'.repeat(10) }, 10))).toHaveLength(0);
    expect(longOnes(jsonPieces({ v: 'a'.repeat(11) }, 10))).toHaveLength(1);
  });

  it('a top-level long string has an empty path', () => {
    expect(jsonPieces('q'.repeat(20), 5)).toEqual([
      { kind: 'long', path: '', full: JSON.stringify('q'.repeat(20)), short: '"qqqqq…"', length: 20, after: '' },
    ]);
  });

  it('keeps escapes valid: newlines stay \\n, and a surrogate pair is never cut in half', () => {
    const [line] = longOnes(jsonPieces({ v: 'ab\ncdefgh' }, 3));
    expect(line).toMatchObject({ short: '"ab\\n…"' });
    const [emoji] = longOnes(jsonPieces({ v: 'ab😀cdef' }, 3));
    expect(emoji).toMatchObject({ short: '"ab…"' });
  });

  it('a string that looks like the internal placeholder is shown as itself', () => {
    const value = { v: '\u0000abc:0\u0000', w: 'k'.repeat(20) };
    expect(expanded(jsonPieces(value, 10))).toBe(JSON.stringify(value, null, 2));
  });

  it('follows toJSON (a Date is its ISO string) and skips undefined members, like JSON.stringify', () => {
    const value = { when: new Date(Date.UTC(2024, 0, 2)), gone: undefined, arr: [undefined] };
    const pieces = jsonPieces(value, 5);
    expect(expanded(pieces)).toBe(JSON.stringify(value, null, 2));
    expect(longOnes(pieces)).toMatchObject([{ path: 'when', length: 24 }]);
  });

  it('undefined is the text "undefined"; a limit below 1 shortens nothing', () => {
    expect(jsonPieces(undefined, 10)).toEqual([{ kind: 'text', text: 'undefined' }]);
    expect(jsonPieces({ v: 'a'.repeat(100) }, 0)).toEqual([
      { kind: 'text', text: JSON.stringify({ v: 'a'.repeat(100) }, null, 2) },
    ]);
  });
});
