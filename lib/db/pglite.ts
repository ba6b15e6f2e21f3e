// The embedded store: PGlite in <dataDir>/pgdata, guarded by the data-dir lock, migrated at open.
// `memory://` gives a private in-memory database (tests): no files, no lock.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, types, type ParserOptions, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import type { Database } from './database';
import { acquireDataDirLock, type DataDirLock } from './lock';
import { registerDirectQuery, singleMessageQuery } from './prepared';

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

/**
 * The result parsers Drizzle passes with every query (timestamps, intervals and dates, and their
 * arrays, as text). PGlite merges a query's parsers into its own table of about 300 on each call,
 * an object spread that cost 0.1-0.3 ms per statement; so they are installed once, at open, and
 * `withoutQueryParsers` drops them from each call. Any other per-query parsers pass through.
 */
const asText = (value: string) => value;
const DRIZZLE_PARSERS: ParserOptions = Object.fromEntries(
  [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [
    oid,
    asText,
  ]),
);
const DRIZZLE_PARSER_KEYS = Object.keys(DRIZZLE_PARSERS).join(',');

const OPTIONS = {
  startParams: [...PGlite.defaultStartParams, ...SETTINGS],
  initDbStartParams: SETTINGS,
  parsers: DRIZZLE_PARSERS,
};

function stripParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers || Object.keys(options.parsers).join(',') !== DRIZZLE_PARSER_KEYS) return options;
  const { parsers: _installed, ...rest } = options;
  return rest;
}

/**
 * The client Drizzle is given (Drizzle uses only `query` and `transaction`): without Drizzle's
 * per-query parsers, and outside transactions with each statement sent as one message, prepared
 * once by name (prepared.ts).
 */
interface Queryable {
  query: PGlite['query'];
}
function drizzleClient(client: PGlite, fast: PGlite['query']): Queryable & Pick<PGlite, 'transaction'> {
  const query = ((text: string, params?: unknown[], options?: QueryOptions) =>
    fast(text, params, stripParsers(options))) as PGlite['query'];
  return { query, transaction: (fn) => client.transaction((tx) => fn(withoutQueryParsers(tx) as Transaction)) };
}
function withoutQueryParsers(tx: Transaction): Queryable {
  return {
    query: ((text: string, params?: unknown[], options?: QueryOptions) =>
      tx.query(text, params, stripParsers(options))) as PGlite['query'],
  };
}

export interface PgliteOptions {
  /** In-memory only: start from this dump (PGlite's dumpDataDir) instead of an empty cluster. */
  loadDataDir?: Blob;
}

export async function openPglite(
  dataDir: string,
  migrationsFolder: string,
  options: PgliteOptions = {},
): Promise<OpenedStore> {
  const memory = dataDir === MEMORY_DATA_DIR;
  let lock: DataDirLock | undefined;
  let client: PGlite | undefined;
  try {
    if (!memory) {
      lock = await acquireDataDirLock(dataDir);
      await mkdir(path.join(dataDir, 'pgdata'), { recursive: true });
    }
    const opened = memory
      ? await PGlite.create({ loadDataDir: options.loadDataDir, ...OPTIONS })
      : await PGlite.create(path.join(dataDir, 'pgdata'), OPTIONS);
    client = opened;
    const fast = singleMessageQuery(opened, (text, params, queryOptions) =>
      opened.query(text, params, queryOptions),
    ) as PGlite['query'];
    // Drizzle's type asks for a PGlite; it calls only `query` and `transaction` (drizzle-orm/pglite/session.js).
    const db = drizzle({ client: drizzleClient(opened, fast) as unknown as PGlite });
    registerDirectQuery(db, fast);
    await migrate(db, { migrationsFolder });
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
