// fetch_url and local network addresses: after DNS resolution (an injected resolver stands in for
// the hosts file), loopback is reached only when a rule of the administrator's policy names the
// destination literally. A wildcard, a run's own rules (here: rules the gate sees but the
// administrator's policy does not hold) and redirects do not unlock it. A real server on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { compilePolicy, evaluate, type RuleInput } from '../../../policy';
import { createFetchUrlTool } from './fetch-url';
import { toolContext } from '../test-support';
import type { ToolError } from '../types';

let server: http.Server;
let port: number;
const hits: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits.push(`${req.headers.host}${req.url}`);
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/redirect') res.writeHead(302, { location: url.searchParams.get('to') ?? '/hello' }).end();
    else res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  hits.length = 0;
});

/** A hosts file: `vm` and `db.internal` are 127.0.0.1; anything else does not resolve. */
const HOSTS: Record<string, string> = { vm: '127.0.0.1', 'db.internal': '127.0.0.1', localhost: '127.0.0.1' };
const tool = createFetchUrlTool({
  lookup: async (hostname) => {
    const address = HOSTS[hostname];
    if (!address) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return [{ address, family: 4 }];
  },
});

/**
 * `stored`: the administrator's policy; `run`: rules a run brings along (the server's per-run
 * `permissions`), which the gate sees on top of the stored ones.
 */
function fetchAs(url: string, stored: RuleInput[], run: RuleInput[] = []) {
  const storedPolicy = compilePolicy({ riskDefaults: { read_only: 'ask' }, rules: stored });
  const gatePolicy = compilePolicy({ riskDefaults: { read_only: 'ask' }, rules: [...stored, ...run] });
  const ctx = toolContext('/nonexistent-workspace', {
    evaluate: (call) => evaluate(gatePolicy, call),
    trustedPolicy: storedPolicy,
  });
  return tool.execute({ url }, ctx).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error: error as ToolError }),
  );
}

const allowAll: RuleInput = { action: 'allow', tool: 'fetch_url', params: { url: '*' } };
const at = (host: string, path = '/hello') => `http://${host}:${port}${path}`;

describe('fetch_url: local addresses need a literal rule of the administrator', () => {
  it('a hosts-file name for 127.0.0.1 is refused under a wildcard allow rule a run supplies, before connecting', async () => {
    const { error } = await fetchAs(at('vm'), [], [allowAll]);
    expect(error?.code).toBe('refused');
    expect(error?.message).toMatch(
      /^fetch_url: vm resolves to 127\.0\.0\.1 \(loopback\); such addresses are fetched only when a rule of the administrator's policy/,
    );
    expect(hits).toEqual([]);
  });

  // Rules are functions of the server's port, which is known only once it listens.
  it.each<[string, () => RuleInput]>([
    ['url *', () => allowAll],
    ['url **', () => ({ action: 'allow', tool: 'fetch_url', params: { url: '**' } })],
    [
      'a host wildcard in the url pattern',
      () => ({ action: 'allow', tool: 'fetch_url', params: { url: `http://*:${port}/**` } }),
    ],
    ['host *', () => ({ action: 'allow', tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: '*' }] })],
    ['no condition at all', () => ({ action: 'allow', tool: 'fetch_url' })],
    ['tool * and no condition', () => ({ action: 'allow', tool: '*' })],
  ])("a wildcard in the administrator's own policy does not unlock it either: %s", async (_name, rule) => {
    const { error } = await fetchAs(at('vm'), [rule()]);
    expect(error?.code).toBe('refused');
    expect(hits).toEqual([]);
  });

  it("a literal rule a run supplies does not unlock it: only the administrator's policy counts", async () => {
    const literal: RuleInput = { action: 'allow', tool: 'fetch_url', params: { url: `http://127.0.0.1:${port}/**` } };
    expect((await fetchAs(at('127.0.0.1'), [], [literal])).error?.code).toBe('refused');
    expect(hits).toEqual([]);
  });

  it.each<[string, string, () => RuleInput]>([
    ['the host name', 'vm', () => ({ action: 'allow', tool: 'fetch_url', params: { url: `http://vm:${port}/**` } })],
    [
      'localhost',
      'localhost',
      () => ({ action: 'allow', tool: 'fetch_url', params: { url: `http://localhost:${port}/**` } }),
    ],
    [
      'the address, in a host condition',
      '127.0.0.1',
      () => ({ action: 'allow', tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: '127.0.0.1' }] }),
    ],
    [
      'a CIDR block',
      '127.0.0.1',
      () => ({ action: 'allow', tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: '127.0.0.0/8' }] }),
    ],
    [
      'a block holding the address a wildcard name resolved to',
      'db.internal',
      () => ({
        action: 'allow',
        tool: 'fetch_url',
        when: [{ key: 'url', op: 'host', value: '*.internal,127.0.0.0/8' }],
      }),
    ],
    [
      'an ask rule (a person approves each call)',
      'vm',
      () => ({ action: 'ask', tool: 'fetch_url', params: { url: `http://vm:${port}/**` } }),
    ],
  ])('a rule of the administrator naming %s unlocks it', async (_name, host, rule) => {
    const { result, error } = await fetchAs(at(host), [rule()], [allowAll]);
    expect(error).toBeUndefined();
    expect(result?.output).toContain('hello');
    expect(hits).toEqual([`${host}:${port}/hello`]);
  });

  it('the naming rule must match the URL: a rule for one path or port does not open another', async () => {
    const rule: RuleInput = { action: 'allow', tool: 'fetch_url', params: { url: `http://vm:${port}/health` } };
    expect((await fetchAs(at('vm', '/admin'), [rule], [allowAll])).error?.code).toBe('refused');
    const otherPort: RuleInput = { action: 'allow', tool: 'fetch_url', params: { url: `http://vm:1/**` } };
    expect((await fetchAs(at('vm'), [otherPort], [allowAll])).error?.code).toBe('refused');
    expect(hits).toEqual([]);
  });

  it('a name or a subdomain match is not a literal name: `internal` does not name db.internal', async () => {
    const rule: RuleInput = {
      action: 'allow',
      tool: 'fetch_url',
      when: [{ key: 'url', op: 'host', value: 'internal' }],
    };
    expect((await fetchAs(at('db.internal'), [rule], [allowAll])).error?.code).toBe('refused');
  });

  it('every redirect hop is checked the same way: an allowed host redirecting to loopback under another name is refused by the pin', async () => {
    // The first hop is named by the administrator; the run's wildcard lets the policy allow the
    // second (the hop check passes), and the pin still refuses it: `vm` is named nowhere.
    const first: RuleInput = {
      action: 'allow',
      tool: 'fetch_url',
      params: { url: `http://127.0.0.1:${port}/redirect**` },
    };
    const { error } = await fetchAs(
      `${at('127.0.0.1', '/redirect')}?to=${encodeURIComponent(at('vm'))}`,
      [first],
      [allowAll],
    );
    expect(error?.code).toBe('refused');
    expect(error?.message).toMatch(/vm resolves to 127\.0\.0\.1 \(loopback\)/);
    expect(hits).toEqual([`127.0.0.1:${port}/redirect?to=${encodeURIComponent(at('vm'))}`]);
  });

  it.each([
    ['IPv4-compatible', '[::7f00:1]'],
    ['IPv4-mapped', '[::ffff:7f00:1]'],
    ['NAT64', '[64:ff9b::7f00:1]'],
    ['6to4', '[2002:7f00:1::]'],
    ['Teredo', '[2001:0:4136:e378:8000:63bf:80ff:fffe]'],
  ])('an IPv6 address carrying 127.0.0.1 (%s) is refused under a wildcard', async (_form, host) => {
    const { error } = await fetchAs(`http://${host}:${port}/hello`, [allowAll]);
    expect(error?.code).toBe('refused');
    expect(error?.message).toMatch(/\(loopback\)/);
  });
});
