// Opens the store: PostgreSQL when a URL is given, else PGlite in a data directory. Each store is
// opened once per process (a ref-counted registry on globalThis, which outlives Next dev reloads);
// the last handle closed closes it. Migrations run at open.
import path from 'node:path';
import type { DatabaseHandle, DatabaseKind } from './database';
import { resolveMigrationsFolder } from './migrate';
import { MEMORY_DATA_DIR, openPglite, type OpenedStore } from './pglite';
import { openPostgres } from './postgres';

export interface OpenDatabaseOptions {
  /** PGlite's directory (default `.data/db` under the cwd); `memory://` for a private in-memory database. */
  dataDir?: string;
  /** A postgres:// URL: use PostgreSQL instead of PGlite. */
  databaseUrl?: string;
  /** Where the SQL migrations are, when not found beside this module or under the cwd. */
  migrationsFolder?: string;
  /** PostgreSQL pool size (default 10). */
  maxConnections?: number;
}

interface Entry {
  kind: DatabaseKind;
  refs: number;
  opening: Promise<OpenedStore>;
}

interface Registry {
  entries: Map<string, Entry>;
  /** Stores being closed: a reopen of the same key waits for the close (and its lock release). */
  closing: Map<string, Promise<void>>;
}

const processGlobal = globalThis as typeof globalThis & { __gatehouseDbRegistry?: Registry };
const registry = (processGlobal.__gatehouseDbRegistry ??= { entries: new Map(), closing: new Map() });

export const DEFAULT_DATA_DIR = path.join('.data', 'db');

export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  const migrationsFolder = resolveMigrationsFolder(options.migrationsFolder);
  if (options.databaseUrl) {
    const url = options.databaseUrl;
    return acquire(`postgres:${url}`, 'postgres', () =>
      openPostgres(url, migrationsFolder, { maxConnections: options.maxConnections }),
    );
  }
  if (options.dataDir === MEMORY_DATA_DIR) {
    const store = await openPglite(MEMORY_DATA_DIR, migrationsFolder);
    return handle(store, 'pglite', () => store.close());
  }
  // The ignore comment keeps Turbopack from tracing the whole project into the server output.
  const dataDir = path.resolve(/*turbopackIgnore: true*/ options.dataDir ?? DEFAULT_DATA_DIR);
  return acquire(`pglite:${dataDir}`, 'pglite', () => openPglite(dataDir, migrationsFolder));
}

async function acquire(key: string, kind: DatabaseKind, open: () => Promise<OpenedStore>): Promise<DatabaseHandle> {
  let entry = registry.entries.get(key);
  if (!entry) {
    const previousClose = registry.closing.get(key);
    const created: Entry = { kind, refs: 0, opening: (previousClose ?? Promise.resolve()).then(open) };
    created.opening.catch(() => {
      if (registry.entries.get(key) === created) registry.entries.delete(key);
    });
    registry.entries.set(key, created);
    entry = created;
  }
  entry.refs += 1;
  const current = entry;
  let store: OpenedStore;
  try {
    store = await current.opening;
  } catch (error) {
    current.refs -= 1;
    throw error;
  }
  return handle(store, current.kind, () => release(key, current, store));
}

async function release(key: string, entry: Entry, store: OpenedStore): Promise<void> {
  entry.refs -= 1;
  if (entry.refs > 0) return;
  if (registry.entries.get(key) === entry) registry.entries.delete(key);
  const closing = store.close();
  const settled = closing.then(
    () => undefined,
    () => undefined,
  );
  registry.closing.set(key, settled);
  void settled.then(() => {
    if (registry.closing.get(key) === settled) registry.closing.delete(key);
  });
  await closing;
}

function handle(store: OpenedStore, kind: DatabaseKind, close: () => Promise<void>): DatabaseHandle {
  let closed: Promise<void> | undefined;
  return { db: store.db, kind, close: () => (closed ??= close()) };
}
