// Which unit test files must run with a module graph of their own (vitest.config.ts). Files in
// the shared project reuse their worker's modules across files, so a file that changes something
// process-wide would reach the files after it: the environment, fake timers, globals, spies and
// module mocks. Such a file is recognised by its source, so the split keeps itself without a list.
// (Route tests share: withRouteRuntime puts back what it changes, lib/server/test-support.)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What in a test file's source marks it as changing process-wide state. */
export const PROCESS_WIDE =
  /process\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)|delete process\.env|vi\.(?:stubEnv|stubGlobal|spyOn|mock|doMock|useFakeTimers)|useFakeTimers|globalThis/;

/** True when a test file with this source must run isolated. */
export const needsIsolation = (source: string): boolean => PROCESS_WIDE.test(source);

/** The test files (`*.test.ts`, relative to `root`, with `/`) under `dirs` that must run isolated. */
export function isolatedTestFiles(root: string, dirs: readonly string[]): string[] {
  const found: string[] = [];
  for (const dir of dirs) {
    let entries: string[];
    try {
      entries = readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' });
    } catch {
      continue; // a folder this checkout does not have
    }
    for (const entry of entries) {
      if (!entry.endsWith('.test.ts') || entry.split(path.sep).includes('node_modules')) continue;
      const file = path.join(dir, entry);
      if (needsIsolation(readFileSync(path.join(root, file), 'utf8'))) found.push(file.split(path.sep).join('/'));
    }
  }
  return found.sort();
}
