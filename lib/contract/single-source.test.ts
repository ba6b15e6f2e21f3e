// What crosses a boundary is defined once, here: no other source file restates an event shape's
// old names, the mode labels, the run-status list, the roles or the signed-in user.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['app', 'components', 'lib', 'e2e', 'bench', 'examples', 'scripts'];
const HERE = path.join('lib', 'contract');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(rel);
    return /\.(ts|tsx|mts|mjs)$/.test(entry.name) ? [rel] : [];
  });
}

// Specs and tests may name what the user sees; the app's code may not restate it.
const isSpec = (file: string) => file.startsWith('e2e') || /\.test\.tsx?$/.test(file);

const DEFINITIONS: Array<[string, RegExp]> = [
  ['a mode label table', /MODE_LABELS\s*(:|=)|['"]Safe mode['"]/],
  ['the run-status list', /\[\s*'running',\s*'waiting',\s*'done'/],
  ['the role type', /type\s+Role\s*=|\[\s*'admin',\s*'approver',\s*'user'\s*\]/],
  ['the signed-in user', /interface\s+Me\b|type\s+Me\s*=/],
  ['a relay request', /interface\s+RelayRequest\b/],
  ['a run summary', /interface\s+RunSummary\b/],
];

it.each(DEFINITIONS)('%s is defined only in lib/contract', (_what, pattern) => {
  const offenders = FOLDERS.flatMap(sources).filter(
    (file) => !file.startsWith(HERE) && !isSpec(file) && pattern.test(readFileSync(path.join(ROOT, file), 'utf8')),
  );
  expect(offenders).toEqual([]);
});
