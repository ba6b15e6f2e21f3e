// The embedded store: PGlite in <dataDir>/pgdata, guarded by the data-dir lock, migrated at open.
// `memory://` gives a private in-memory database (tests): no files, no lock.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { Database } from './database';
import { acquireDataDirLock, type DataDirLock } from './lock';

export const MEMORY_DATA_DIR = 'memory://';

export interface OpenedStore {
  db: Database;
  close(): Promise<void>;
}

export interface PgliteOptions {
  /** In-memory only: start from this dump (PGlite's dumpDataDir) instead of an empty cluster. */
  loadDataDir?: Blob;
}

export async function openPglite(dataDir: string, migrationsFolder: string, options: PgliteOptions = {}): Promise<OpenedStore> {
  const memory = dataDir === MEMORY_DATA_DIR;
  let lock: DataDirLock | undefined;
  let client: PGlite | undefined;
  try {
    if (!memory) {
      lock = await acquireDataDirLock(dataDir);
      await mkdir(path.join(dataDir, 'pgdata'), { recursive: true });
    }
    client = memory ? await PGlite.create({ loadDataDir: options.loadDataDir }) : await PGlite.create(path.join(dataDir, 'pgdata'));
    const db = drizzle({ client });
    await migrate(db, { migrationsFolder });
    const opened = client;
    const held = lock;
    return {
      db,
      async close() {
        try {
          if (!opened.closed) await opened.close();
        } finally {
          await held?.release();
        }
      },
    };
  } catch (error) {
    await client?.close().catch(() => undefined);
    await lock?.release();
    throw error;
  }
}
