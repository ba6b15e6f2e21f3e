import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCompareArgs, UsageError } from './args';
import { lockMismatch } from './checkout';

describe('parseCompareArgs', () => {
  it('takes the refs as options or as two positionals, with the defaults', () => {
    expect(parseCompareArgs(['--base', 'HEAD~1', '--head', 'HEAD'])).toMatchObject({
      base: 'HEAD~1',
      head: 'HEAD',
      script: 'bench:policy',
      runs: 5,
      benchArgs: [],
    });
    expect(parseCompareArgs(['main', '.'])).toMatchObject({ base: 'main', head: '.' });
    expect(parseCompareArgs(['--base=a', 'b'])).toMatchObject({ base: 'a', head: 'b' });
  });

  it('names the bench by its npm script, with or without the bench: prefix, and passes what follows -- to it', () => {
    expect(parseCompareArgs(['a', 'b', '--bench', 'gate', '--runs', '3', '--', '--instances', '2'])).toMatchObject({
      script: 'bench:gate',
      runs: 3,
      benchArgs: ['--instances', '2'],
    });
    expect(parseCompareArgs(['a', 'b', '--bench=bench:spawn']).script).toBe('bench:spawn');
    expect(parseCompareArgs(['a', 'b', '--only', 'p50', '--all', '--keep'])).toMatchObject({
      only: /p50/,
      all: true,
      keep: true,
    });
  });

  it.each([
    [[], /two refs/],
    [['a'], /two refs/],
    [['a', 'b', 'c'], /too many refs/],
    [['a', 'b', '--runs', '0'], /--runs must be/],
    [['a', 'b', '--runs', 'x'], /--runs must be/],
    [['a', 'b', '--runs'], /needs a value/],
    [['a', 'b', '--only', '('], /not a regular expression/],
    [['a', 'b', '--fast'], /unknown option/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseCompareArgs(argv)).toThrow(UsageError);
    expect(() => parseCompareArgs(argv)).toThrow(message);
  });
});

describe('lockMismatch: when a checkout may reuse the installed node_modules', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'compare-lock-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const install = (name: string, version: string) => {
    mkdirSync(path.join(root, 'node_modules', name), { recursive: true });
    writeFileSync(path.join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }));
  };
  install('a', '1.0.0');
  install('b', '2.0.0');
  const lock = (packages: Record<string, { version: string; optional?: boolean }>) => ({
    packages: { '': { version: '0.0.0' }, ...packages },
  });

  it('accepts a lockfile whose packages are installed at their versions, extra packages and missing optional ones included', () => {
    expect(
      lockMismatch(
        lock({ 'node_modules/a': { version: '1.0.0' }, 'node_modules/c': { version: '1.0.0', optional: true } }),
        root,
      ),
    ).toBeUndefined();
  });

  it('refuses a missing package or another version', () => {
    expect(lockMismatch(lock({ 'node_modules/c': { version: '1.0.0' } }), root)).toMatch(
      /node_modules\/c is not installed/,
    );
    expect(lockMismatch(lock({ 'node_modules/b': { version: '2.1.0' } }), root)).toMatch(
      /node_modules\/b is 2.0.0, the lockfile wants 2.1.0/,
    );
  });
});
