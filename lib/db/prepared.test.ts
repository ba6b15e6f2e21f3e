import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveMigrationsFolder } from './migrate';
import { MEMORY_DATA_DIR, openPglite, type OpenedStore } from './pglite';
import { pglitePreparedRunner, preparedRunnerOf, type PreparedStatement } from './prepared';
import { createQueries } from './queries';
import { rowsOf } from './statement';
import { migratedTemplate } from './test-support/pglite-template';

describe('named prepared statements on PGlite', () => {
  let client: PGlite;
  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec('CREATE TABLE t (id text PRIMARY KEY, doc jsonb)');
  });
  afterAll(() => client.close());

  const insert: PreparedStatement = { name: 'test_insert', text: 'INSERT INTO t (id, doc) VALUES ($1, $2::jsonb) RETURNING id, doc, $1 IS NULL AS nothing' };

  it('prepares once, then runs by name; rows come back as text under their column names', async () => {
    const runner = pglitePreparedRunner(client);
    expect(await runner.run(insert, ['a', '{"x": 1}'])).toEqual([{ id: 'a', doc: '{"x": 1}', nothing: 'f' }]);
    expect(await runner.run(insert, ['b', null])).toEqual([{ id: 'b', doc: null, nothing: 'f' }]);
    const statements = await client.query<{ name: string }>('SELECT name FROM pg_prepared_statements');
    expect(statements.rows.map((row) => row.name)).toEqual(['test_insert']);
  });

  it('passes the database error on, with its SQLSTATE, and stays usable', async () => {
    const runner = pglitePreparedRunner(client);
    await expect(runner.run(insert, ['a', null])).rejects.toMatchObject({ code: '23505' });
    expect(await runner.run(insert, ['c', null])).toEqual([{ id: 'c', doc: null, nothing: 'f' }]);
  });

  it('prepares again when the statement was deallocated behind its back', async () => {
    const runner = pglitePreparedRunner(client);
    await runner.run(insert, ['d', null]);
    await client.exec('DEALLOCATE ALL');
    expect(await runner.run(insert, ['e', null])).toEqual([{ id: 'e', doc: null, nothing: 'f' }]);
  });

  it('recovers when its first Parse succeeded but the Bind after it failed', async () => {
    await client.exec('DEALLOCATE ALL');
    const runner = pglitePreparedRunner(client);
    await expect(runner.run(insert, ['f', 'not json'])).rejects.toMatchObject({ code: '22P02' });
    expect(await runner.run(insert, ['f', '[]'])).toEqual([{ id: 'f', doc: '[]', nothing: 'f' }]);
    // A second runner of the same process that never parsed it finds it there (42P05) and carries on.
    expect(await pglitePreparedRunner(client).run(insert, ['g', null])).toEqual([{ id: 'g', doc: null, nothing: 'f' }]);
  });

  it('never runs inside another caller’s transaction: it waits for its end', async () => {
    const runner = pglitePreparedRunner(client);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let insertedInTransaction!: () => void;
    const inTransaction = new Promise<void>((resolve) => (insertedInTransaction = resolve));
    const rolledBack = client
      .transaction(async (tx) => {
        await tx.query(`INSERT INTO t (id) VALUES ('in-tx')`);
        insertedInTransaction();
        await held;
        throw new Error('roll back');
      })
      .catch(() => 'rolled back');
    await inTransaction;
    const prepared = runner.run(insert, ['outside', null]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(await rolledBack).toBe('rolled back');
    await prepared;
    const ids = (await client.query<{ id: string }>(`SELECT id FROM t WHERE id IN ('in-tx', 'outside')`)).rows.map((row) => row.id);
    expect(ids).toEqual(['outside']);
  });
});

describe('the store’s settle of a human decision', () => {
  let store: OpenedStore;
  beforeAll(async () => {
    const migrationsFolder = resolveMigrationsFolder();
    store = await openPglite(MEMORY_DATA_DIR, migrationsFolder, { loadDataDir: await migratedTemplate(migrationsFolder) });
  });
  afterAll(() => store.close());

  it('is a named prepared statement on the top-level handle, and not inside a transaction', async () => {
    expect(preparedRunnerOf(store.db)).toBeDefined();
    await store.db.transaction(async (tx) => expect(preparedRunnerOf(tx)).toBeUndefined());
    const q = createQueries(store.db);
    const now = Date.now();
    await q.relays.insertRelay({
      request: {
        id: 'relay-p', kind: 'permission', runId: 'r1', sessionId: 's1', agentId: 'main', parents: [], toolCallId: 'call-p', tool: 'bash',
        params: { command: 'date' }, decision: { action: 'ask', reason: 'risk_default', explanation: 'bash asks' }, suggestedRules: [],
        prompt: 'Run bash?', createdAt: now, expiresAt: now + 60_000,
      },
    });
    const result = await q.relays.resolveRelay({ id: 'relay-p', status: 'approved', response: { approved: true, reason: 'ok' }, decidedBy: 'alice', claim: { toolCallId: 'call-p' } });
    expect(result).toMatchObject({ ok: true, claimed: true, relay: { status: 'approved', response: { approved: true, reason: 'ok' }, reason: 'ok', decidedBy: 'alice' } });
    const names = rowsOf<{ name: string }>(await store.db.execute(sql`SELECT name FROM pg_prepared_statements`)).map((row) => row.name);
    expect(names).toContain('gatehouse_settle_decision');
  });
});
