// Runs one query-module suite against each store: PGlite in memory always, PostgreSQL when it can
// be reached. Without PostgreSQL the Postgres half is skipped, except under CI=true, where the
// file fails. Tables are emptied before every test.
import { getTableName, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import type { Database, DatabaseHandle, DatabaseKind } from '../database';
import { openDatabase } from '../open';
import { resolveMigrationsFolder } from '../migrate';
import { MEMORY_DATA_DIR, openPglite } from '../pglite';
import { createQueries, type Queries } from '../queries';
import { audit, events, grants, messages, policyShadow, policyVersions, relays, runs, toolExecutions } from '../schema';
import { migratedTemplate } from './pglite-template';
import { createScratchDatabase, probePostgres } from './postgres';

export interface StoreContext {
  kind: DatabaseKind;
  db: Database;
  q: Queries;
}

export const postgres = await probePostgres();

if (!postgres.url && process.env.CI === 'true') {
  throw new Error(`PostgreSQL is required under CI=true and is not available: ${postgres.reason}`);
}

// DELETE, not TRUNCATE: on tables this small it is an order of magnitude faster (PGlite above all).
const EMPTY_TABLES = [audit, events, grants, messages, policyShadow, policyVersions, relays, runs, toolExecutions].map(
  (table) => sql.raw(`DELETE FROM "${getTableName(table)}"`),
);

/** Opens a store of the given kind in a place of its own; `dispose` closes and removes it. */
export async function openScratchStore(
  kind: DatabaseKind,
): Promise<{ handle: DatabaseHandle; dispose(): Promise<void> }> {
  if (kind === 'pglite') {
    const migrationsFolder = resolveMigrationsFolder();
    const store = await openPglite(MEMORY_DATA_DIR, migrationsFolder, {
      loadDataDir: await migratedTemplate(migrationsFolder),
    });
    return { handle: { db: store.db, kind, close: store.close }, dispose: store.close };
  }
  if (!postgres.url) throw new Error(`PostgreSQL is not available: ${postgres.reason}`);
  const scratch = await createScratchDatabase(postgres.url);
  const handle = await openDatabase({ databaseUrl: scratch.url });
  return {
    handle,
    async dispose() {
      await handle.close();
      await scratch.drop();
    },
  };
}

export function describeStores(title: string, body: (store: () => StoreContext) => void): void {
  for (const kind of ['pglite', 'postgres'] as const) {
    const skip = kind === 'postgres' && !postgres.url;
    (skip ? describe.skip : describe)(`${title} [${kind}]${skip ? ` (no PostgreSQL: ${postgres.reason})` : ''}`, () => {
      let context: StoreContext | undefined;
      let dispose: (() => Promise<void>) | undefined;
      beforeAll(async () => {
        const opened = await openScratchStore(kind);
        dispose = opened.dispose;
        context = { kind, db: opened.handle.db, q: createQueries(opened.handle.db) };
      }, 30_000);
      afterAll(async () => {
        await dispose?.();
      });
      beforeEach(async () => {
        for (const statement of EMPTY_TABLES) await context?.db.execute(statement);
      });
      body(() => {
        if (!context) throw new Error('store not open');
        return context;
      });
    });
  }
}
