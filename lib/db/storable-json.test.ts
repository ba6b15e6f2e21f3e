import { describe, expect, it } from 'vitest';
import { cutText, storableJson, storableText, storableValue } from './storable-json';

describe('storable text and JSON', () => {
  it('replaces NUL and lone surrogates with U+FFFD and keeps whole pairs', () => {
    expect(storableText('a\u0000b')).toBe('a\ufffdb');
    expect(storableText('\ud83d x \ude00 \ud83d\ude00')).toBe('\ufffd x \ufffd \ud83d\ude00');
    expect(storableText('\ude00\ud83d')).toBe('\ufffd\ufffd');
    expect(storableText('plain')).toBe('plain');
  });

  it('is JSON.stringify for a value with nothing to replace, the same text', () => {
    const value = { a: [1, 'two', { three: null }], 'b\\u0000': 'a backslash, then u0000, is text', e: '\ud83d\ude00' };
    expect(storableJson(value)).toBe(JSON.stringify(value));
    expect(storableValue(value)).toBe(value);
    expect(storableJson(undefined)).toBeUndefined();
  });

  it('replaces in keys and values at any depth, and takes values as JSON does (toJSON, no undefined)', () => {
    const at = new Date(0);
    const value = { 'k\u0000': [{ deep: 'x\ud800' }], at, gone: undefined };
    const expected = { 'k\ufffd': [{ deep: 'x\ufffd' }], at: at.toISOString() };
    expect(JSON.parse(storableJson(value))).toEqual(expected);
    expect(storableValue(value)).toEqual(expected);
    // A backslash, then a NUL: JSON writes `\\\u0000`, the NUL's escape after an escaped backslash.
    expect(JSON.parse(storableJson({ x: 'a\\\u0000' }))).toEqual({ x: 'a\\\ufffd' });
  });

  it('cuts text without leaving half a surrogate pair', () => {
    const text = `${'n'.repeat(99)}\u{1F600}`;
    expect(cutText(text, 100)).toBe('n'.repeat(99));
    expect(cutText(text, 101)).toBe(text);
    expect(cutText(text, 200)).toBe(text);
    expect(cutText('abc', 2)).toBe('ab');
    expect(storableText(cutText(`\u{1F600}\u{1F600}`, 3))).toBe('\u{1F600}');
  });
});
