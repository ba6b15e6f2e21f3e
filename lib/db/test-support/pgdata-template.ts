// A migrated PGlite cluster on disk, made once per machine (keyed by PGlite's version and the
// migrations, as pglite-template.ts keys its in-memory dump) and copied into a test's data
// directory: a copy and open take about a tenth of a fresh initdb, which route tests would
// otherwise pay once per file. Only for tests that are not about the first start itself.
import { cpSync, existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveMigrationsFolder } from '../migrate';
import { openPglite } from '../pglite';
import { templateKey } from './pglite-template';

async function templateDir(migrationsFolder: string): Promise<string> {
  const dir = path.join(os.tmpdir(), `gatehouse-pgdata-${await templateKey(migrationsFolder)}`);
  if (existsSync(path.join(dir, 'pgdata', 'PG_VERSION'))) return dir;
  // Parallel test files may build it at the same time: each builds privately, the first rename wins.
  const building = mkdtempSync(`${dir}.building-`);
  try {
    const store = await openPglite(building, migrationsFolder);
    await store.close();
    try {
      renameSync(building, dir);
    } catch (error) {
      if (!existsSync(path.join(dir, 'pgdata', 'PG_VERSION'))) throw error;
    }
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
}

/** Puts a migrated, empty cluster at `<dbDir>/pgdata` (the layout openPglite opens). */
export async function seedPgliteDir(dbDir: string, migrationsFolder = resolveMigrationsFolder()): Promise<void> {
  const template = await templateDir(migrationsFolder);
  cpSync(path.join(template, 'pgdata'), path.join(dbDir, 'pgdata'), { recursive: true });
}
