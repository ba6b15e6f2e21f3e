// fetch_url and local addresses in the server: a run's own `permissions` (which any user may send
// with a chat) never unlock a loopback address, whatever they allow; a literal rule of the stored
// policy (which only admins edit) does. A real server on 127.0.0.1, on both stores.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import { loadPolicy, savePolicyVersion } from '../stores/policy-store';
import { followRun, testRunManager, useTempWorkspace, ofType } from '../test-support/run-manager';

const workspace = useTempWorkspace('gatehouse-fetch-');
let server: http.Server;
let origin: string;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('health: ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits = 0;
});

describeStores('RunManager: fetch_url and local addresses', (store) => {
  /** A stored policy without the default's deny rule for private hosts, plus `rules`. */
  async function storePolicy(rules: unknown[]) {
    const { version } = await loadPolicy(store().q);
    await savePolicyVersion(store().q, {
      policy: { riskDefaults: { read_only: 'ask' }, rules },
      expectedVersion: version,
      createdBy: 'admin',
    });
  }

  async function fetchInRun(permissions?: unknown) {
    const m = testRunManager(store().q, workspace());
    const { runId } = await m.start({
      messages: [{ role: 'user', content: `fetch ${origin}/api/health` }],
      ...(permissions ? { permissions } : {}),
    });
    const events = await followRun(m, runId);
    return { call: ofType(events, 'tool_call')[0], result: ofType(events, 'tool_result')[0] };
  }

  it("a run's own permissions allowing every URL do not reach the server's loopback address", async () => {
    await storePolicy([]);
    const { call, result } = await fetchInRun({ allowlist: [{ tool: 'fetch_url' }] });
    expect(call).toMatchObject({ decision: { action: 'allow', reason: 'matched_rule' } });
    expect(result).toMatchObject({ isError: true, denied: false });
    expect(String(result?.output)).toMatch(
      /127\.0\.0\.1 \(loopback\); such addresses are fetched only when a rule of the administrator's policy/,
    );
    expect(hits).toBe(0);
  });

  it("a run's own permissions naming the address literally do not either", async () => {
    await storePolicy([]);
    const { result } = await fetchInRun({ allowlist: [{ tool: 'fetch_url', params: { url: `${origin}/**` } }] });
    expect(String(result?.output)).toMatch(/\(loopback\)/);
    expect(hits).toBe(0);
  });

  it('a literal rule of the stored policy unlocks it', async () => {
    await storePolicy([{ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/api/**` } }]);
    const { result } = await fetchInRun();
    expect(result).toMatchObject({ isError: false });
    expect(String(result?.output)).toContain('health: ok');
    expect(hits).toBe(1);
  });
});
