// Receivers an attacker runs, against the webhook sender and its targets: a receiver's name server that never
// answers must not hold an attempt past its time limit (the limit is what keeps a sender's slots
// and its claim's lock honest), and Gatehouse's own public address is refused in every spelling.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { RelayRequest } from '../../contract';
import { describeStores } from '../../db/test-support/stores';
import { postJson } from './post';
import { SecretBox } from './secret-box';
import { WebhookSender } from './sender';
import { checkWebhookTarget } from './target';

// Name servers as an attacker runs them: `stalled.example` never answers; `gate.example` (with or
// without its trailing dot) is Gatehouse's public name. Every other name resolves as usual.
vi.mock('node:dns/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns/promises')>();
  const lookup = (host: string, ...rest: unknown[]) => {
    if (host === 'stalled.example') return new Promise(() => {});
    if (host.replace(/\.$/, '') === 'gate.example') {
      const address = { address: '203.0.113.10', family: 4 };
      return Promise.resolve((rest[0] as { all?: boolean } | undefined)?.all ? [address] : address);
    }
    return (real.lookup as (...args: unknown[]) => Promise<unknown>)(host, ...rest);
  };
  return { ...real, lookup, default: { ...real, lookup } };
});

const box = new SecretBox('x'.repeat(32));
const senders: WebhookSender[] = [];
const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const s of senders.splice(0)) await s.stop();
  for (const close of closers.splice(0)) await close();
});

function relay(): RelayRequest {
  const now = Date.now();
  return {
    id: `relay-review-${now}-${Math.random()}`,
    kind: 'permission',
    runId: 'r1',
    sessionId: 's1',
    agentId: 'main',
    parents: [],
    toolCallId: 'call_1',
    tool: 'bash',
    params: { command: 'ls' },
    decision: { action: 'ask', reason: 'risk_default', explanation: 'bash asks' },
    suggestedRules: [],
    prompt: 'Run bash?',
    createdAt: now,
    expiresAt: now + 60_000,
  };
}

const withinMs = <T>(ms: number, promise: Promise<T>) =>
  Promise.race([promise, new Promise<'timed out'>((resolve) => setTimeout(() => resolve('timed out'), ms))]);

describeStores('webhook attack review', (store) => {
  beforeEach(async () => {
    await store().db.execute(sql`DELETE FROM webhook_endpoints`);
  });

  it("an attempt whose receiver's name never resolves ends within its time limit, recorded as failed", async () => {
    const { q } = store();
    const hook = await q.webhooks.createEndpoint({
      url: 'https://stalled.example/hook',
      events: ['relay.created'],
      format: 'json',
      secret: box.seal('whsec_x'),
      createdBy: 'admin',
    });
    const timeoutMs = 200;
    const s = new WebhookSender({
      q,
      box,
      config: { allowPrivate: false, timeoutMs, retryBaseMs: 60_000, retryForS: 600, pollMs: 50 },
      publicUrl: 'https://gate.example',
      ownPort: 1,
    });
    s.start();
    senders.push(s);
    const req = relay();
    await q.relays.insertRelay({ request: req });
    s.relayChanged(req.id);
    const deadline = Date.now() + timeoutMs * 10;
    let attempted = false;
    while (!attempted && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const [delivery] = (await q.webhooks.listDeliveries({ endpointId: hook.id, limit: 1 })).items;
      attempted = delivery !== undefined && delivery.lastError !== null;
    }
    expect(attempted).toBe(true);
  });
});

it('registration gives up on a name server that never answers', async () => {
  const checked = checkWebhookTarget('https://stalled.example/hook', {
    allowPrivate: false,
    ownPort: 3000,
    publicUrl: 'https://gate.example',
  });
  expect(
    await withinMs(
      10_000,
      checked.then(
        () => 'accepted',
        () => 'refused',
      ),
    ),
  ).toBe('refused');
}, 15_000);

it.each(['https://gate.example./hook', 'https://GATE.EXAMPLE.:443/hook', 'https://203.0.113.10/hook'])(
  'Gatehouse itself is refused as %s (its public name with a trailing dot, or its address)',
  async (url) => {
    const options = { allowPrivate: false, ownPort: 3000, publicUrl: 'https://gate.example' };
    await expect(checkWebhookTarget(url, options)).rejects.toThrow(/Gatehouse itself/);
  },
);

it('a receiver that answers 200 and then trickles its body forever is cut off at the time limit', async () => {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const drip = setInterval(() => response.write('.'), 20);
    response.on('close', () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  const target = {
    url: new URL(`http://127.0.0.1:${port}/hook`),
    pinned: { address: '127.0.0.1', family: 4 as const },
  };
  expect(await withinMs(3_000, postJson(target, '{}', {}, 300))).not.toBe('timed out');
});
