import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database';
import { LOCK_FILE } from './lock';
import { resolveMigrationsFolder } from './migrate';
import { openDatabase } from './open';
import { MEMORY_DATA_DIR } from './pglite';
import { openPostgres } from './postgres';
import { createQueries } from './queries';
import { createScratchDatabase } from './test-support/postgres';
import { postgres } from './test-support/stores';

const migrationsFolder = resolveMigrationsFolder();
const journal = JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
  entries: unknown[];
};

async function appliedMigrations(db: Database): Promise<number> {
  const result = (await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]!.n;
}

describe('migrations folder', () => {
  it('is found beside the module, with a journal', () => {
    expect(migrationsFolder).toBe(fileURLToPath(new URL('./migrations', import.meta.url)));
    expect(journal.entries.length).toBeGreaterThan(0);
  });

  it('is found under the cwd too, and an explicit folder must exist', () => {
    expect(resolveMigrationsFolder(undefined, path.resolve(migrationsFolder, '../../..'))).toBe(migrationsFolder);
    expect(() => resolveMigrationsFolder('/nonexistent/migrations')).toThrow(/No database migrations found/);
  });
});

describe('PGlite in a data directory', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'gatehouse-db-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('migrates on open, keeps data across close and reopen, and migrates only once', async () => {
    const first = await openDatabase({ dataDir: dir });
    expect(first.kind).toBe('pglite');
    expect(await appliedMigrations(first.db)).toBe(journal.entries.length);
    const q = createQueries(first.db);
    await q.runs.createRun({ id: 'kept', sessionId: 's', title: 'survives a restart' });
    await q.events.appendEvent({ runId: 'kept', type: 'text', data: { delta: 'hi' } });
    expect((await readFile(path.join(dir, LOCK_FILE), 'utf8')).trim()).toBe(String(process.pid));
    await first.close();
    expect(await readdir(dir)).not.toContain(LOCK_FILE);

    const second = await openDatabase({ dataDir: dir });
    const again = createQueries(second.db);
    expect(await appliedMigrations(second.db)).toBe(journal.entries.length);
    expect(await again.runs.getRun({ id: 'kept' })).toMatchObject({ title: 'survives a restart', lastEventSeq: 1 });
    expect((await again.events.appendEvent({ runId: 'kept', type: 'done', data: {} })).seq).toBe(2);
    await second.close();
  }, 90_000);

  it('opens a directory once per process: concurrent and repeated opens share it until the last close', async () => {
    const relative = path.relative(process.cwd(), dir);
    const [a, b] = await Promise.all([openDatabase({ dataDir: dir }), openDatabase({ dataDir: relative })]);
    expect(a.db).toBe(b.db);
    await a.close();
    await a.close(); // a handle closes once
    expect(await createQueries(b.db).runs.getRun({ id: 'kept' })).toBeDefined();
    expect(await readdir(dir)).toContain(LOCK_FILE);
    const c = await openDatabase({ dataDir: dir });
    expect(c.db).toBe(b.db);
    await Promise.all([b.close(), c.close()]);
    expect(await readdir(dir)).not.toContain(LOCK_FILE);
    // Reopening right after the last close waits for that close, then opens afresh.
    const d = await openDatabase({ dataDir: dir });
    expect(d.db).not.toBe(b.db);
    await d.close();
  }, 90_000);

  it('gives every in-memory open its own database', async () => {
    const [a, b] = await Promise.all([
      openDatabase({ dataDir: MEMORY_DATA_DIR }),
      openDatabase({ dataDir: MEMORY_DATA_DIR }),
    ]);
    await createQueries(a.db).runs.createRun({ id: 'only-in-a', sessionId: 's' });
    expect(await createQueries(b.db).runs.getRun({ id: 'only-in-a' })).toBeUndefined();
    await Promise.all([a.close(), b.close()]);
  }, 90_000);
});

describe.skipIf(!postgres.url)('PostgreSQL', () => {
  it('migrates on open, once, even when several instances open together', async () => {
    const scratch = await createScratchDatabase(postgres.url!);
    try {
      const stores = await Promise.all([0, 1, 2].map(() => openPostgres(scratch.url, migrationsFolder)));
      for (const store of stores) expect(await appliedMigrations(store.db)).toBe(journal.entries.length);
      await Promise.all(stores.map((s) => s.close()));

      const handle = await openDatabase({ databaseUrl: scratch.url });
      expect(handle.kind).toBe('postgres');
      expect(await appliedMigrations(handle.db)).toBe(journal.entries.length);
      await createQueries(handle.db).runs.createRun({ id: 'kept', sessionId: 's' });
      await handle.close();
      const reopened = await openDatabase({ databaseUrl: scratch.url });
      expect(await createQueries(reopened.db).runs.getRun({ id: 'kept' })).toBeDefined();
      await reopened.close();
    } finally {
      await scratch.drop();
    }
  }, 90_000);
});
