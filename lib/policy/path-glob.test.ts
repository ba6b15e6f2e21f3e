// Path globs: picomatch's meaning (dot: true) on normalized absolute paths, matched by RE2 in
// linear time; what needs a lookahead is refused when compiled.
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compilePolicy, evaluate } from './index';
import { compilePathGlob } from './path-glob';
import { compilePathPattern, pathContext } from './paths';

const SYNTAX = [
  'a',
  'b',
  '.',
  '*',
  '**',
  '?',
  '[ab]',
  '[!a]',
  '[^a]',
  '[a-c]',
  '{a,b}',
  '{a,}',
  '{1..3}',
  '[[:alpha:]]',
  '+(a|b)',
  '@(a)',
  '*(a)',
  '?(b)',
  '\\*',
  '\\a',
  '!',
  '+',
  '@',
  '(',
  ')',
  '|',
  ',',
  '"',
  "'",
  '$',
  '^',
  '1',
];
const globSegment = fc.array(fc.constantFrom(...SYNTAX), { minLength: 1, maxLength: 4 }).map((xs) => xs.join(''));
const glob = fc.array(globSegment, { minLength: 1, maxLength: 4 }).map((xs) => `/${xs.join('/')}`);
// Normalized absolute paths: no empty, `.` or `..` segment.
const valueSegment = fc
  .array(fc.constantFrom('a', 'b', '.', '*', '1', '!', '(', ')', ',', '"', '[', ']', '{', '}', 'ab', '...', '\\'), {
    minLength: 1,
    maxLength: 4,
  })
  .map((xs) => xs.join(''))
  .filter((s) => s !== '.' && s !== '..');
const path = fc.array(valueSegment, { minLength: 0, maxLength: 5 }).map((xs) => `/${xs.join('/')}`);

describe('path globs', () => {
  it('a path glob matches exactly what picomatch matches, on normalized paths', () => {
    fc.assert(
      fc.property(glob, fc.array(path, { minLength: 1, maxLength: 8 }), (pattern, values) => {
        let ours;
        try {
          ours = compilePathGlob(pattern);
        } catch (error) {
          // Only what needs a lookahead is refused.
          expect((error as Error).message).toMatch(/negated extglob|escape|three or more \* in a row/);
          return;
        }
        const reference = picomatch(pattern, { dot: true });
        for (const value of values) expect(ours.test(value), `${pattern} on ${value}`).toBe(reference(value));
      }),
      { numRuns: 1500 },
    );
  }, 60_000);

  it('a glob of only *, ? and ** segments (matched without a regex) matches exactly what picomatch matches', () => {
    const simpleSegment = fc.oneof(
      fc.constant('**'),
      fc.array(fc.constantFrom('a', 'b', '.', '*', '?', 'ab'), { minLength: 1, maxLength: 3 }).map((xs) => xs.join('')),
    );
    const simpleGlob = fc
      .array(simpleSegment, { minLength: 1, maxLength: 5 })
      .map((xs) => `/${xs.join('/')}`)
      .filter((glob) => !glob.includes('***'));
    const simplePath = fc
      .array(
        fc
          .array(fc.constantFrom('a', 'b', '.', 'ab', '*'), { minLength: 1, maxLength: 3 })
          .map((xs) => xs.join(''))
          .filter((s) => s !== '.' && s !== '..'),
        { maxLength: 6 },
      )
      .map((xs) => `/${xs.join('/')}`);
    fc.assert(
      fc.property(simpleGlob, fc.array(simplePath, { minLength: 1, maxLength: 10 }), (pattern, values) => {
        const ours = compilePathGlob(pattern);
        const reference = picomatch(pattern, { dot: true });
        for (const value of values) expect(ours.test(value), `${pattern} on ${value}`).toBe(reference(value));
      }),
      { numRuns: 3000 },
    );
  }, 60_000);

  it('three or more stars in a row are refused with a message (picomatch reads them as one * and then matches the next . as any character)', () => {
    expect(() => compilePathGlob('/***/a.*')).toThrow(/three or more \* in a row/);
    expect(() => compilePathGlob('/a/b***')).toThrow(/three or more \* in a row/);
    expect(() => compilePathGlob('/a/\\***')).not.toThrow();
    expect(() =>
      compilePolicy({ rules: [{ action: 'deny', tool: 'read_file', params: { path: '/***/a.*' } }] }),
    ).toThrow(/rules\.0\.params\.path.*three or more/);
  });

  it('the fast shapes (a plain path, a directory and everything below it) agree with picomatch', () => {
    const ctx = pathContext('/ws', '/home/u');
    for (const pattern of ['src/a.ts', 'src/**', '/etc/**', '~/.ssh/**', 'a b/**', 'src/x.y/**']) {
      const ours = compilePathPattern(pattern, ctx);
      const full = pattern.startsWith('/')
        ? pattern
        : pattern.startsWith('~')
          ? `/home/u${pattern.slice(1)}`
          : `/ws/${pattern}`;
      const reference = picomatch(full, { dot: true });
      for (const value of [
        '/ws/src/a.ts',
        '/ws/src',
        '/ws/srcx',
        '/ws/src/a/b',
        '/etc',
        '/etc/passwd',
        '/home/u/.ssh/id',
        '/ws/a b/c',
        '/ws/src/x.y',
        '/ws/src/xzy/1',
        '/',
      ]) {
        expect(ours.test(value), `${pattern} on ${value}`).toBe(reference(value));
      }
    }
  });

  it('a negated extglob is refused with a message that says why, naming the rule field', () => {
    expect(() => compilePathGlob('/ws/!(x)')).toThrow(/negated extglob/);
    expect(() =>
      compilePolicy({ rules: [{ action: 'deny', tool: 'read_file', params: { path: 'src/!(*.ts)' } }] }),
    ).toThrow(/rules\.0\.params\.path: a negated extglob/);
  });

  it('a path glob is linear: /ws/*a*a*a*a*b against a 100,000-character name (25 s for 200 before)', () => {
    const value = `/ws/${'a'.repeat(100_000)}`;
    const deep = `/ws/${'a/'.repeat(20_000)}c`;
    for (const [pattern, v] of [
      ['/ws/*a*a*a*a*b', value],
      ['/ws/**/a/**/a/**/a/**/b', deep],
      ['/ws/+(a|aa)+(a|aa)b', value],
      ['/ws/**a**a**a**b', deep],
    ] as const) {
      const matcher = compilePathGlob(pattern);
      const start = performance.now();
      expect(matcher.test(v)).toBe(false);
      expect(performance.now() - start).toBeLessThan(500);
    }
  });

  it('** covers names with a line break, so deny rules see them (picomatch skipped them)', () => {
    const policy = compilePolicy({ rules: [{ action: 'deny', tool: 'read_file', params: { path: '/etc/**' } }] });
    expect(evaluate(policy, { tool: 'read_file', params: { path: '/etc/a\nb/passwd' } }).action).toBe('deny');
  });
});
