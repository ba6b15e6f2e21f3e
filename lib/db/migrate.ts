// Where the committed SQL migrations are at run time. Beside this module (lib/db/migrations) when run
// from source (vitest, tsx, node --import tsx); a bundler may move the module, so the repo-relative
// path under the cwd is the fallback, and callers can always pass the folder explicitly.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const JOURNAL = path.join('meta', '_journal.json');

function besideThisModule(): string | undefined {
  try {
    return path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
  } catch {
    return undefined; // import.meta.url is not a file: URL (some bundles)
  }
}

export function resolveMigrationsFolder(explicit?: string, cwd = process.cwd()): string {
  const candidates = explicit ? [explicit] : [besideThisModule(), path.join(cwd, 'lib', 'db', 'migrations')];
  for (const folder of candidates) {
    if (folder && existsSync(path.join(folder, JOURNAL))) return folder;
  }
  throw new Error(
    `No database migrations found (looked for ${JOURNAL} in ${candidates.filter(Boolean).join(', ')}). ` +
      'Pass migrationsFolder to openDatabase, or ship lib/db/migrations with the app.',
  );
}
