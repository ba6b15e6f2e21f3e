// fetch_url to a local address through the whole loop: what allows the call (a grant, a person's
// approval, a mode, rules given beside the administrator's policy) never unlocks the address;
// a literal rule of the administrator's policy does. A real server on 127.0.0.1.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, MemoryGrantStore, type AgentEvent, type AgentOptions } from '../../index';
import type { PolicyInput, Rule } from '../../../policy';

let server: http.Server;
let origin: string;
let hits = 0;
let workspace: string;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('local secret');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(async () => {
  hits = 0;
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-local-net-')));
});
afterEach(() => rm(workspace, { recursive: true, force: true }));

/** No rule about fetch_url: read-only tools ask. */
const asks: PolicyInput = { riskDefaults: { read_only: 'ask' }, rules: [] };
const literal = (): Rule => ({ action: 'allow', tool: 'fetch_url', params: { url: `${origin}/**` } });

async function fetchResult(options: AgentOptions, approve = false, permissions?: unknown) {
  const events: AgentEvent[] = [];
  for await (const event of createAgent({ workspace, ...options }).invoke({
    messages: [{ role: 'user', content: `fetch ${origin}/x` }],
    sessionId: 's',
    permissions,
  })) {
    events.push(event);
    if (event.type === 'relay') void event.respond({ approved: approve });
  }
  const call = events.find((e) => e.type === 'tool_call');
  const result = events.find((e) => e.type === 'tool_result');
  return {
    decision: call?.type === 'tool_call' ? call.decision : undefined,
    result: result?.type === 'tool_result' ? result : undefined,
  };
}

describe('fetch_url: local addresses through the loop', () => {
  it('a person approving the call does not unlock it', async () => {
    const { decision, result } = await fetchResult({ policy: asks }, true);
    expect(decision).toMatchObject({ action: 'ask' });
    expect(result).toMatchObject({ isError: true, denied: false });
    expect(result?.output).toMatch(/127\.0\.0\.1 \(loopback\)/);
    expect(hits).toBe(0);
  });

  it('a session grant does not unlock it', async () => {
    const grants = new MemoryGrantStore({ sessionId: 's', grants: [literal()] });
    const { decision, result } = await fetchResult({ policy: asks, grants });
    expect(decision).toMatchObject({ action: 'allow', reason: 'session_grant' });
    expect(result?.output).toMatch(/\(loopback\)/);
    expect(hits).toBe(0);
  });

  it('a mode does not unlock it (bypassPermissions)', async () => {
    const { decision, result } = await fetchResult({ policy: asks, mode: 'bypassPermissions' });
    expect(decision).toMatchObject({ action: 'allow', reason: 'mode' });
    expect(result?.output).toMatch(/\(loopback\)/);
    expect(hits).toBe(0);
  });

  it("a literal rule outside the administrator's policy (a run's own permissions) does not unlock it", async () => {
    const { decision, result } = await fetchResult({ policy: { ...asks, rules: [literal()] }, trustedPolicy: asks });
    expect(decision).toMatchObject({ action: 'allow', reason: 'matched_rule' });
    expect(result?.output).toMatch(/\(loopback\)/);
    expect(hits).toBe(0);
  });

  it("a literal rule in the run's own permissions (invoke({ permissions })) does not unlock it", async () => {
    const { decision, result } = await fetchResult({ policy: asks }, false, {
      allowlist: [{ tool: 'fetch_url', params: { url: `${origin}/**` } }],
    });
    expect(decision).toMatchObject({ action: 'allow', reason: 'matched_rule' });
    expect(result?.output).toMatch(/\(loopback\)/);
    expect(hits).toBe(0);
  });

  it("a literal rule of the administrator's policy unlocks it (by default the policy given is the administrator's)", async () => {
    const { result } = await fetchResult({ policy: { ...asks, rules: [literal()] } });
    expect(result).toMatchObject({ isError: false });
    expect(result?.output).toContain('local secret');
    expect(hits).toBe(1);
  });
});
