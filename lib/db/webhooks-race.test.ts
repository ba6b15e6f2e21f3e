// The delivery claim against another instance on one PostgreSQL: a delivery this claim saw as due
// that the other instance meanwhile attempted and scheduled for later is not taken early (the
// claim's UPDATE re-checks, on the row as committed, that it is due).
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './database';
import { createQueries, type Queries } from './queries';
import { webhookDeliveries } from './schema';
import { rowsOf } from './statement';
import { openScratchStore, postgres } from './test-support/stores';

describe.skipIf(!postgres.url)('webhook delivery claims racing another instance [postgres]', () => {
  let handle: DatabaseHandle;
  let dispose: () => Promise<void>;
  let q: Queries;
  beforeAll(async () => {
    ({ handle, dispose } = await openScratchStore('postgres'));
    q = createQueries(handle.db);
  });
  afterAll(() => dispose());

  it('a delivery retried later by the other instance while this claim waited on its row is not claimed now', async () => {
    const { db } = handle;
    const endpoint = await q.webhooks.createEndpoint({
      url: 'https://race.example/hook',
      events: ['relay.created'],
      format: 'json',
      secret: 'sealed',
      createdBy: 'admin',
    });
    await db
      .insert(webhookDeliveries)
      .values({ id: 'race-1', endpointId: endpoint.id, relayId: 'relay-race-1', event: 'relay.created' });

    // The other instance: attempted it and failed, so it is due again only in an hour (uncommitted yet).
    let commit!: () => void;
    const committing = new Promise<void>((resolve) => (commit = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const other = db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({ attempts: 1, lockedUntil: null, nextAttemptAt: sql`now() + interval '1 hour'` })
        .where(eq(webhookDeliveries.id, 'race-1'));
      written();
      await committing;
    });
    await wrote;

    // This instance's claim saw it due and waits for the row.
    const claiming = q.webhooks.claimDue({ limit: 16, perEndpoint: 4, lockMs: 60_000 });
    for (let i = 0; ; i++) {
      const waiting = await db.execute(
        sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if ((rowsOf<{ n: number }>(waiting)[0]?.n ?? 0) > 0) break;
      if (i > 500) throw new Error('the claim never waited for the row');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    commit();
    await other;
    expect(await claiming).toEqual([]);
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, 'race-1'));
    expect(row).toMatchObject({ attempts: 1, lockedUntil: null });
  });
});
