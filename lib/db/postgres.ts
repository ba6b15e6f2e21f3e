// The PostgreSQL store: a node-postgres Pool, migrated at open under an advisory lock so that
// several instances starting together apply each migration once.
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { OpenedStore } from './pglite';

/** Arbitrary but fixed: the advisory lock key of Gatehouse's migrations. */
const MIGRATION_LOCK_KEY = 7_405_362_118;

export interface PostgresOptions {
  /** Pool size (default 10). */
  maxConnections?: number;
}

export async function openPostgres(
  databaseUrl: string,
  migrationsFolder: string,
  options: PostgresOptions = {},
): Promise<OpenedStore> {
  // A server that silently stops answering must not hang requests: connecting gives up after 5 s
  // (the request answers 503), and TCP keep-alive notices a dead peer.
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
  });
  // An idle client that loses its connection emits 'error' on the pool; the pool drops it, and an
  // unhandled 'error' event would otherwise crash the process.
  pool.on('error', () => undefined);
  try {
    const client = await pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await migrate(drizzle({ client }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
  return { db: drizzle({ client: pool }), close: () => pool.end() };
}
