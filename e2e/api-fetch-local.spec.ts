// A `user` cannot make fetch_url reach the server itself with a run's own `permissions`: a name
// the hosts file gives 127.0.0.1 (this machine's own host name, as `vm` was in the report) or an
// IPv6 address carrying 127.0.0.1, both outside the default policy's list of private hosts, are
// refused after resolution although the user's wildcard rule lets the gate allow the call.
import { lookup } from 'node:dns/promises';
import os from 'node:os';
import { expect, test } from '@playwright/test';
import {
  adminPrincipal,
  createUser,
  openStream,
  randomSuffix,
  signIn,
  type Principal,
} from './support/access-principals';
import type { SseEvent } from './support/sse';

const PASSWORD = 'fetch-local-password-1';
let user: Principal;

test.beforeAll(async ({ playwright, baseURL }) => {
  const admin = await adminPrincipal(playwright, baseURL!);
  const username = `fetch-local-${randomSuffix()}`;
  await createUser(admin, username, 'user', PASSWORD);
  user = await signIn(playwright, baseURL!, username, PASSWORD);
});

/** Runs `fetch <url>` as the user, with permissions allowing every fetch; the call's decision and result. */
async function fetchAsUser(url: string) {
  const body = {
    messages: [{ role: 'user', content: `fetch ${url}` }],
    permissions: { allowlist: [{ tool: 'fetch_url' }] },
  };
  const { response, events } = await openStream(user, 'POST', '/api/chat', body);
  expect(response.status).toBe(200);
  const seen: SseEvent[] = [];
  await events.until('done', seen);
  const data = (type: string) => seen.find((e) => e.event === type)?.data as Record<string, unknown> | undefined;
  return { call: data('tool_call'), result: data('tool_result') };
}

test("a host name for 127.0.0.1 is refused although the user's own permissions allow every URL", async ({
  baseURL,
}) => {
  const name = os.hostname();
  const { address } = await lookup(name);
  test.skip(!address.startsWith('127.'), `${name} resolves to ${address}, not to loopback, on this machine`);
  const { call, result } = await fetchAsUser(`http://${name}:${new URL(baseURL!).port}/api/health`);
  expect(call).toMatchObject({ decision: { action: 'allow', reason: 'matched_rule' } });
  expect(result).toMatchObject({ isError: true, denied: false });
  expect(String(result?.output)).toContain(`${name} resolves to ${address} (loopback)`);
  expect(String(result?.output)).not.toContain('"status"');
});

test('an IPv6 address carrying 127.0.0.1 is refused as loopback', async ({ baseURL }) => {
  const { call, result } = await fetchAsUser(`http://[::ffff:0:7f00:1]:${new URL(baseURL!).port}/api/health`);
  expect(call).toMatchObject({ decision: { action: 'allow' } });
  expect(String(result?.output)).toMatch(/resolves to ::ffff:0:7f00:1 \(loopback\)/);
});
