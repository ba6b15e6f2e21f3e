import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from './unified-diff';

/** Applies a unified diff produced by unifiedDiff; the strict inverse used to pin "exactly". */
function apply(before: string, diff: string): string {
  const old = before.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const lines = diff.split('\n');
  const out: string[] = [];
  let at = 0;
  let i = 2;
  while (i < lines.length && lines[i] !== '') {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(lines[i]!);
    if (!header) throw new Error(`bad hunk header: ${lines[i]}`);
    const start = Number(header[2]) === 0 ? Number(header[1]) : Number(header[1]) - 1;
    while (at < start) out.push(old[at++]!);
    i++;
    while (i < lines.length && /^[ +-]/.test(lines[i]!)) {
      const line = lines[i]!;
      const noNewline = lines[i + 1] === '\\ No newline at end of file';
      const text = line.slice(1) + (noNewline ? '' : '\n');
      if (line[0] !== '+') {
        if (old[at] !== text) throw new Error(`context mismatch at old line ${at + 1}`);
        at++;
      }
      if (line[0] !== '-') out.push(text);
      i += noNewline ? 2 : 1;
    }
  }
  while (at < old.length) out.push(old[at++]!);
  return out.join('');
}

describe('unifiedDiff', () => {
  it('shows a new file as one added hunk', () => {
    expect(unifiedDiff('src/a.txt', '', 'one\ntwo\n')).toBe(
      '--- a/src/a.txt\n+++ b/src/a.txt\n@@ -0,0 +1,2 @@\n+one\n+two\n',
    );
  });

  it('keeps 3 lines of context around a change', () => {
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n') + '\n';
    const after = before.replace('5\n', 'five\n');
    expect(unifiedDiff('f', before, after)).toBe(
      '--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n',
    );
  });

  it('splits distant changes into hunks and merges near ones', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `l${i + 1}`);
    const before = lines.join('\n') + '\n';
    const far = before.replace('l2\n', 'L2\n').replace('l20\n', 'L20\n');
    expect(unifiedDiff('f', before, far).match(/^@@/gm)).toHaveLength(2);
    // Six unchanged lines between two changes: their contexts touch, so one hunk.
    const near = before.replace('l2\n', 'L2\n').replace('l9\n', 'L9\n');
    expect(unifiedDiff('f', before, near).match(/^@@/gm)).toHaveLength(1);
  });

  it('marks a missing final newline', () => {
    expect(unifiedDiff('f', 'a\nb', 'a\nb\n')).toBe(
      '--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n',
    );
  });

  it('has no hunks when nothing changes', () => {
    expect(unifiedDiff('f', 'same\n', 'same\n')).toBe('--- a/f\n+++ b/f\n');
  });

  it('is accepted by patch(1), which reproduces the new text exactly', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-diff-'));
    try {
      const cases: [string, string][] = [
        ['a\nb\nc\n', 'a\nB\nc\nd'],
        ['', 'new\nfile\n'],
        ['x\r\ny\r\n', 'x\r\nz\r\n'],
        [
          Array.from({ length: 40 }, (_, i) => `${i}\n`).join(''),
          Array.from({ length: 40 }, (_, i) => `${i % 7 === 0 ? 'x' : i}\n`).join(''),
        ],
      ];
      for (const [before, after] of cases) {
        const file = path.join(dir, 'f');
        writeFileSync(file, before);
        writeFileSync(path.join(dir, 'p.diff'), unifiedDiff('f', before, after));
        execFileSync('patch', ['-s', '-p1', '-i', 'p.diff'], { cwd: dir });
        expect(readFileSync(file, 'utf8')).toBe(after);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stays exact when the change is too big for a minimal diff', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i}\n`).join('');
    const after = Array.from({ length: 3000 }, (_, i) => (i % 2 ? `changed ${i}\n` : `line ${i}\n`)).join('');
    const started = performance.now();
    const diff = unifiedDiff('big', before, after);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(apply(before, diff)).toBe(after);
  });

  it('always describes exactly the change (property)', () => {
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', 'd', '', 'a b'), { maxLength: 30 })
      .chain((lines) =>
        fc.tuple(fc.constant(lines.join('\n')), fc.boolean()).map(([t, nl]) => (nl && t !== '' ? `${t}\n` : t)),
      );
    fc.assert(
      fc.property(text, text, (before, after) => {
        expect(apply(before, unifiedDiff('f', before, after))).toBe(after);
      }),
      { numRuns: 500 },
    );
  });
});
