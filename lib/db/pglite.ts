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

/**
 * PostgreSQL's defaults are sized for a server of its own; PGlite lives inside this process, in
 * one single-user backend. With them the WebAssembly heap holds about 230 MB after start, of
 * which 128 MB of shared buffers (touched at start). A 16 MB buffer pool (the tables of a busy
 * Gatehouse are small, and a miss is a read from the OS page cache) and room for a handful of
 * backends bring it to about 100 MB. Given at every start (startParams) and to initdb, whose
 * run on the first start otherwise peaks about 180 MB higher.
 */
const SETTINGS = ['-c', 'shared_buffers=16MB', '-c', 'max_connections=8', '-c', 'wal_buffers=512kB'];
const MEMORY_SETTINGS = { startParams: [...PGlite.defaultStartParams, ...SETTINGS], initDbStartParams: SETTINGS };

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
    client = memory
      ? await PGlite.create({ loadDataDir: options.loadDataDir, ...MEMORY_SETTINGS })
      : await PGlite.create(path.join(dataDir, 'pgdata'), MEMORY_SETTINGS);
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
