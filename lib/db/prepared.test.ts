import { sql } from 'drizzle-orm';
import { PGlite, type QueryOptions } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveMigrationsFolder } from './migrate';
import { MEMORY_DATA_DIR, openPglite, type OpenedStore } from './pglite';
import { compiledStatement, singleMessageQuery } from './prepared';
import { rowsOf } from './statement';
import { migratedTemplate } from './test-support/pglite-template';

describe('statements as one message, prepared by name (PGlite)', () => {
  let client: PGlite;
  let fallback: ReturnType<typeof vi.fn>;
  let query: ReturnType<typeof singleMessageQuery>;
  beforeAll(async () => {
    client = await PGlite.create();
    await client.exec('CREATE TABLE t (id text PRIMARY KEY, n int, doc jsonb, at timestamptz, ok boolean)');
  });
  afterAll(() => client.close());
  beforeEach(async () => {
    await client.exec('DELETE FROM t; DEALLOCATE ALL');
    fallback = vi.fn((text: string, params?: unknown[], options?: QueryOptions) => client.query(text, params, options));
    query = singleMessageQuery(client, fallback as never, 2);
  });

  const insert = 'INSERT INTO t (id, n, doc, at, ok) VALUES ($1, $2, $3, $4, $5) RETURNING *';
  const prepared = async () =>
    (await client.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map(
      (row) => row.name,
    );

  it('returns what PGlite’s query returns, for the same statement and parameters', async () => {
    const at = new Date('2026-11-21T10:00:00.123Z');
    const fast = await query(insert, ['a', 7, '{"x": [1, "y"]}', at, true]);
    await client.query('DELETE FROM t');
    const plain = await client.query(insert, ['a', 7, '{"x": [1, "y"]}', at, true]);
    expect(fast).toEqual(plain);
    expect(fast.rows).toEqual([{ id: 'a', n: 7, doc: { x: [1, 'y'] }, at: new Date(at), ok: true }]);
    expect(await query('SELECT id, n FROM t WHERE id = $1', ['a'], { rowMode: 'array' })).toMatchObject({
      rows: [['a', 7]],
    });
    expect(await query('UPDATE t SET n = n + $1', [1n])).toMatchObject({ affectedRows: 1, rows: [] });
    expect(fallback).not.toHaveBeenCalled();
  });

  it('names a statement once seen (up to the limit), and runs later texts as the unnamed statement', async () => {
    await query('SELECT $1::int AS one', [1]);
    await query('SELECT $1::int AS one', [2]);
    await query('SELECT $1::int AS two', [2]);
    expect(await prepared()).toEqual(['gatehouse_1', 'gatehouse_2']);
    expect(await query('SELECT $1::int AS three', [3])).toMatchObject({ rows: [{ three: 3 }] });
    expect(await prepared()).toEqual(['gatehouse_1', 'gatehouse_2']);
  });

  it('parses a new statement once when many callers send it at the same time', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => query('SELECT $1::int AS i', [i])));
    expect(results.map((result) => result.rows[0])).toEqual(Array.from({ length: 20 }, (_, i) => ({ i })));
    expect(await prepared()).toEqual(['gatehouse_1']);
  });

  it('leaves what it does not take to PGlite’s query: objects and arrays as parameters, other options', async () => {
    await query('SELECT $1::jsonb AS doc', [{ a: 1 }]);
    await query('SELECT $1::text[] AS list', [['a', 'b']]);
    await query('SELECT 1 AS one', [], { parsers: {} });
    expect(fallback).toHaveBeenCalledTimes(3);
    expect(await prepared()).toEqual([]);
  });

  it('passes the database error on, with its SQLSTATE and the statement, and stays usable', async () => {
    await query(insert, ['a', 1, null, null, null]);
    await expect(query(insert, ['a', 1, null, null, null])).rejects.toMatchObject({ code: '23505', query: insert });
    expect(await query(insert, ['b', 1, null, null, null])).toMatchObject({ rows: [{ id: 'b' }] });
  });

  it('prepares again when the statement was deallocated behind its back', async () => {
    await query(insert, ['a', 1, null, null, null]);
    await client.exec('DEALLOCATE ALL');
    expect(await query(insert, ['b', 1, null, null, null])).toMatchObject({ rows: [{ id: 'b' }] });
  });

  it('recovers when its first Parse succeeded but the Bind after it failed', async () => {
    await expect(query(insert, ['a', 'not a number', null, null, null])).rejects.toMatchObject({ code: '22P02' });
    expect(await query(insert, ['a', 1, null, null, null])).toMatchObject({ rows: [{ id: 'a' }] });
    // Another cache that never parsed it finds the name taken (42P05) and carries on.
    expect(await singleMessageQuery(client, fallback as never)(insert, ['b', 1, null, null, null])).toMatchObject({
      rows: [{ id: 'b' }],
    });
  });

  it('never runs inside another caller’s transaction: it waits for its end', async () => {
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
    const outside = query(insert, ['outside', null, null, null, null]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    expect(await rolledBack).toBe('rolled back');
    await outside;
    expect((await client.query<{ id: string }>('SELECT id FROM t')).rows.map((row) => row.id)).toEqual(['outside']);
  });
});

describe('the store’s statements on PGlite', () => {
  let store: OpenedStore;
  beforeAll(async () => {
    const migrationsFolder = resolveMigrationsFolder();
    store = await openPglite(MEMORY_DATA_DIR, migrationsFolder, {
      loadDataDir: await migratedTemplate(migrationsFolder),
    });
  });
  afterAll(() => store.close());

  it('a compiled statement is built once with placeholders on the handle, and with its values in a transaction', async () => {
    const build = vi.fn(
      (_db: unknown, v: { a: unknown; s: unknown }) =>
        sql`SELECT ${v.a}::int + 1 AS b, ${v.s}::text AS s, ${v.s}::text IS NULL AS missing`,
    );
    const rows = compiledStatement<{ a: number; s: string | null }>(['a', 's'], build);
    expect(await rows(store.db, { a: 1, s: 'x' })).toEqual([{ b: 2, s: 'x', missing: false }]);
    expect(await rows(store.db, { a: 2, s: null })).toEqual([{ b: 3, s: null, missing: true }]);
    expect(build).toHaveBeenCalledTimes(1);
    await store.db.transaction(async (tx) =>
      expect(await rows(tx, { a: 5, s: 'y' })).toEqual([{ b: 6, s: 'y', missing: false }]),
    );
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('are prepared by name once seen, outside transactions', async () => {
    const names = async () =>
      rowsOf<{ name: string }>(await store.db.execute(sql`SELECT name FROM pg_prepared_statements`)).map(
        (row) => row.name,
      );
    const before = (await names()).length; // counts itself: a statement is named at its Parse
    await store.db.execute(sql`SELECT ${'x'}::text AS a`);
    await store.db.execute(sql`SELECT ${'again'}::text AS a`);
    await store.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT ${'y'}::text AS b`);
    });
    expect((await names()).length).toBe(before + 1);
  });
});
