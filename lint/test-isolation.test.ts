import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedTestFiles, needsIsolation } from './test-isolation';

describe('a test file that changes process-wide state runs isolated', () => {
  it.each([
    ['an environment variable set', "process.env.GATEHOUSE_MODEL = 'offline';"],
    ['an environment variable set by index', "process.env['NODE_ENV'] = 'test';"],
    ['an environment variable deleted', 'delete process.env.HOME;'],
    ['vi.stubEnv', "vi.stubEnv('A', 'b');"],
    ['fake timers', 'vi.useFakeTimers();'],
    ['a spy', "vi.spyOn(console, 'error');"],
    ['a module mock', "vi.mock('./x');"],
    ['a global', 'globalThis.fetch = fake;'],
  ])('%s', (_what, source) => expect(needsIsolation(source)).toBe(true));

  it.each([
    ['reading the environment', 'const url = process.env.DATABASE_URL;'],
    ['comparing it', "if (process.env.CI === 'true') skip();"],
    ['a store of its own', 'const store = await openTestStore();'],
    ['the server runtime of route tests (it puts back what it changes)', "const server = withRouteRuntime('x');"],
  ])('%s does not', (_what, source) => expect(needsIsolation(source)).toBe(false));
});

describe('isolatedTestFiles', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-isolation-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lists the test files that need it, under the folders given, with forward slashes', () => {
    mkdirSync(path.join(root, 'lib/a'), { recursive: true });
    mkdirSync(path.join(root, 'app/api/x'), { recursive: true });
    mkdirSync(path.join(root, 'lib/node_modules/p'), { recursive: true });
    writeFileSync(path.join(root, 'lib/a/pure.test.ts'), 'expect(1).toBe(1);');
    writeFileSync(path.join(root, 'lib/a/env.test.ts'), "process.env.X = '1';");
    writeFileSync(path.join(root, 'lib/a/helper.ts'), "process.env.X = '1';");
    writeFileSync(path.join(root, 'app/api/x/route.test.ts'), 'vi.useFakeTimers();');
    writeFileSync(path.join(root, 'lib/node_modules/p/dep.test.ts'), "process.env.X = '1';");
    expect(isolatedTestFiles(root, ['lib', 'app', 'missing'])).toEqual([
      'app/api/x/route.test.ts',
      'lib/a/env.test.ts',
    ]);
  });
});
