import { sql } from 'drizzle-orm';
import { beforeEach, expect, it } from 'vitest';
import { describeStores } from './test-support/stores';

describeStores('mcp', (store) => {
  beforeEach(async () => {
    await store().db.execute(sql`delete from mcp_tool_pins`);
    await store().db.execute(sql`delete from mcp_servers`);
  });

  const def = (description: string) => ({ name: 't', description, inputSchema: {}, annotations: {} });

  it('the first pin wins; a changed definition is only pending', async () => {
    const { q } = store();
    await q.mcp.insertPin({ server: 's', tool: 't', digest: 'd1', definition: def('one') });
    await q.mcp.insertPin({ server: 's', tool: 't', digest: 'd2', definition: def('two') });
    await q.mcp.markPending({ server: 's', tool: 't', digest: 'd2', definition: def('two') });
    const [pin] = await q.mcp.listPins({ server: 's' });
    expect(pin).toMatchObject({ digest: 'd1', definition: { description: 'one' }, pendingDigest: 'd2' });
  });

  it('accepting settles once, and only the pending digest', async () => {
    const { q } = store();
    await q.mcp.insertPin({ server: 's', tool: 't', digest: 'd1', definition: def('one') });
    await q.mcp.markPending({ server: 's', tool: 't', digest: 'd2', definition: def('two') });
    expect(await q.mcp.acceptPending({ server: 's', tool: 't', digest: 'other', by: 'u' })).toBeUndefined();
    expect(await q.mcp.acceptPending({ server: 's', tool: 't', digest: 'd2', by: 'u' })).toMatchObject({
      digest: 'd2',
      definition: { description: 'two' },
      pendingDigest: null,
      acceptedBy: 'u',
    });
    expect(await q.mcp.acceptPending({ server: 's', tool: 't', digest: 'd2', by: 'u' })).toBeUndefined();
  });

  it('stores servers by name; put replaces', async () => {
    const { q } = store();
    expect(
      await q.mcp.putServer({ name: 'a', config: { type: 'http', url: 'http://x/' }, secrets: null, by: 'u' }),
    ).toBe(true);
    await q.mcp.putServer({ name: 'a', config: { type: 'http', url: 'http://y/' }, secrets: 'enc', by: 'u' });
    expect(await q.mcp.listServers()).toMatchObject([{ name: 'a', config: { url: 'http://y/' }, secrets: 'enc' }]);
    expect(await q.mcp.deleteServer({ name: 'a' })).toBe(true);
    expect(await q.mcp.deleteServer({ name: 'a' })).toBe(false);
  });
});
