// The delivery claim: how many attempts an endpoint may have at once counts those already under
// way (on any instance), and free slots go round the endpoints, so one receiver never takes them all.
import { sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { webhookDeliveries } from './schema';
import { describeStores } from './test-support/stores';

const LOCK = { lockMs: 60_000 };

describeStores('webhook delivery claims', (store) => {
  beforeEach(async () => {
    await store().db.execute(sql`DELETE FROM webhook_endpoints`);
  });

  /** An endpoint with `due` deliveries due now; returns its id. */
  async function endpointWithDue(name: string, due: number): Promise<string> {
    const { q, db } = store();
    const endpoint = await q.webhooks.createEndpoint({
      url: `https://${name}.example/hook`,
      events: ['relay.created'],
      format: 'json',
      secret: 'sealed',
      createdBy: 'admin',
    });
    await db.insert(webhookDeliveries).values(
      Array.from({ length: due }, (_, i) => ({
        id: `${name}-${i}`,
        endpointId: endpoint.id,
        relayId: `relay-${name}-${i}`,
        event: 'relay.created' as const,
      })),
    );
    return endpoint.id;
  }

  const endpointsOf = (claimed: { endpoint: { id: string } }[]) => claimed.map((c) => c.endpoint.id);

  it('an endpoint whose attempts are under way gets no more than perEndpoint in all', async () => {
    const { q } = store();
    const stuck = await endpointWithDue('stuck', 20);
    const first = await q.webhooks.claimDue({ limit: 16, perEndpoint: 4, ...LOCK });
    expect(endpointsOf(first)).toEqual([stuck, stuck, stuck, stuck]);
    // Those four are still locked (their attempts hang): claiming again finds nothing for it.
    expect(await q.webhooks.claimDue({ limit: 16, perEndpoint: 4, ...LOCK })).toEqual([]);
    // One attempt ends: exactly one slot for that endpoint comes back.
    await q.webhooks.markAttemptFailed({ id: first[0]!.delivery.id, error: 'timed out' });
    expect(await q.webhooks.claimDue({ limit: 16, perEndpoint: 4, ...LOCK })).toHaveLength(1);
  });

  it('a busy endpoint leaves the free slots to the others', async () => {
    const { q } = store();
    const stuck = await endpointWithDue('stuck', 20);
    await q.webhooks.claimDue({ limit: 16, perEndpoint: 4, ...LOCK });
    const healthy = await endpointWithDue('healthy', 3);
    const next = await q.webhooks.claimDue({ limit: 16, perEndpoint: 4, ...LOCK });
    expect(endpointsOf(next)).toEqual([healthy, healthy, healthy]);
    expect(endpointsOf(next)).not.toContain(stuck);
  });

  it('fewer free slots than due endpoints: each endpoint gets one before any gets a second', async () => {
    const { q } = store();
    const ids = [await endpointWithDue('a', 3), await endpointWithDue('b', 3), await endpointWithDue('c', 3)];
    const claimed = await q.webhooks.claimDue({ limit: 3, perEndpoint: 4, ...LOCK });
    expect(new Set(endpointsOf(claimed))).toEqual(new Set(ids));
  });
});
