import { describe, expect, it } from 'vitest';
import { CappedBuffer, decodeCapped, formatBytes } from './truncate';

describe('truncate', () => {
  it('formats sizes for markers', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(64 * 1024)).toBe('64.0 KiB');
    expect(formatBytes(1.25 * 1024 * 1024)).toBe('1.3 MiB');
  });

  it('keeps everything under the cap, unmarked', () => {
    const buffer = new CappedBuffer(10);
    buffer.push(Buffer.from('hello'));
    expect(buffer.truncated).toBe(false);
    expect(buffer.text()).toBe('hello');
  });

  it('cuts at the cap, counts the rest and marks the cut', () => {
    const buffer = new CappedBuffer(4);
    buffer.push(Buffer.from('abc'));
    buffer.push(Buffer.from('defgh'));
    expect(buffer.total).toBe(8);
    expect(buffer.text()).toBe('abcd\n[output truncated: 8 B total]');
  });

  it('never splits a multi-byte character at the cut', () => {
    const buffer = new CappedBuffer(4);
    buffer.push(Buffer.from('abé€')); // a b (2 bytes) (3 bytes)
    expect(buffer.text().startsWith('abé\n[output truncated')).toBe(true);
    expect(decodeCapped(Buffer.from('a€'), 2)).toEqual({ text: 'a', truncated: true });
  });
});
