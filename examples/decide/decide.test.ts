// POST /api/hooks/decide through its typed client, wired into a real AI SDK tool: the policy's
// allow runs the tool, its deny never does (the model reads why), a person's decision is awaited,
// and every failure (bad input, no token, Gatehouse unreachable) is a denial or a clear 4xx.
import { tool } from 'ai';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { POST as decideRoute } from '@/app/api/hooks/decide/route';
import { ADMIN_TOKEN, apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { gated } from './ai-sdk-gated-tool';
import { gatehouseDecide } from './gatehouse-decide';

const server = withRouteRuntime('gatehouse-decide-');
/** The AI SDK's execute options, as far as a tool here reads them. */
const opts = (toolCallId: string) => ({ toolCallId, messages: [], context: {} }) as never;

/** fetch, answered by the route handler in this process. */
const inProcess: typeof fetch = async (input, init) =>
  decideRoute(new Request(String(input), init as RequestInit), noParams);

const decide = gatehouseDecide({
  url: 'http://127.0.0.1:3000',
  token: ADMIN_TOKEN,
  agent: 'my-agent',
  session: 's1',
  deadline: 1,
  fetch: inProcess,
});

function bashLike() {
  const run = vi.fn(async ({ command }: { command: string }) => `ran ${command}`);
  return {
    run,
    tool: tool({ description: 'run a command', inputSchema: z.object({ command: z.string() }), execute: run }),
  };
}

describe('the decide client in an AI SDK tool', () => {
  it('runs a call the policy allows (the default policy: reading inside the workspace)', async () => {
    const read = vi.fn(async ({ path }: { path: string }) => `read ${path}`);
    const readTool = tool({ description: 'read a file', inputSchema: z.object({ path: z.string() }), execute: read });
    const inWorkspace = gatehouseDecide({
      url: 'http://127.0.0.1:3000',
      token: ADMIN_TOKEN,
      cwd: '/srv/project',
      fetch: inProcess,
    });
    expect(await gated('read_file', readTool, inWorkspace).execute!({ path: 'README.md' }, opts('c1'))).toBe(
      'read README.md',
    );
    expect(read).toHaveBeenCalledOnce();
  });

  it('never runs a call the policy denies, and tells the model why', async () => {
    const { run, tool: t } = bashLike();
    const result = await gated('bash', t, decide).execute!({ command: 'rm -rf /' }, opts('c2'));
    expect(result).toMatch(/^Not run: /);
    expect(run).not.toHaveBeenCalled();
  });

  it('waits for a person on ask, and denies at the deadline', async () => {
    const { run, tool: t } = bashLike();
    expect(await gated('bash', t, decide).execute!({ command: 'touch x' }, opts('c3'))).toBe(
      'Not run: Approval timeout',
    );
    expect(run).not.toHaveBeenCalled();
  });

  it('runs an asking call once a person approves it in Gatehouse', async () => {
    const { run, tool: t } = bashLike();
    const patient = gatehouseDecide({
      url: 'http://127.0.0.1:3000',
      token: ADMIN_TOKEN,
      agent: 'my-agent',
      session: 's2',
      fetch: inProcess,
    });
    const result = gated('bash', t, patient).execute!({ command: 'touch y' }, opts('c4'));
    const { q } = server.rt();
    let relayId: string | undefined;
    for (let i = 0; i < 400 && !relayId; i++) {
      relayId = (await q.relays.listPendingRelays()).find((r) => r.toolCallId === 'c4')?.id;
      if (!relayId) await new Promise((r) => setTimeout(r, 25));
    }
    await server.rt().runs.decideChecked(relayId!, { approved: true }, 'someone');
    expect(await result).toBe('ran touch y');
    expect(run).toHaveBeenCalledOnce();
  });

  it('denies when Gatehouse is unreachable or refuses the token', async () => {
    const down = gatehouseDecide({ url: 'http://127.0.0.1:9', token: 'x' });
    expect((await down({ tool: 'bash', params: { command: 'ls' } })).decision).toBe('deny');
    const wrong = gatehouseDecide({ url: 'http://127.0.0.1:3000', token: 'not-a-token', fetch: inProcess });
    expect(await wrong({ tool: 'bash', params: { command: 'ls' } })).toMatchObject({
      decision: 'deny',
      reason: expect.stringContaining('401'),
    });
  });
});

describe('POST /api/hooks/decide input', () => {
  const post = (json: unknown) => decideRoute(apiRequest('POST', '/api/hooks/decide', { json }), noParams);

  it('answers 400 naming the field for a bad call, a reserved agent name or a relative cwd', async () => {
    for (const [body, field] of [
      [{ params: {} }, 'tool'],
      [{ tool: 'bash', params: 'ls' }, 'params'],
      [{ tool: 'bash', params: {}, agent: 'claude-code' }, 'agent'],
      [{ tool: 'bash', params: {}, agent: 'gemini-cli' }, 'agent'],
      [{ tool: 'bash', params: {}, agent: 'codex' }, 'agent'],
      [{ tool: 'bash', params: {}, cwd: 'relative/dir' }, 'cwd'],
    ] as const) {
      const response = await post(body);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(field);
    }
  });

  it('answers 401 without a token', async () => {
    const response = await decideRoute(
      new Request('http://127.0.0.1:3000/api/hooks/decide', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      }),
      noParams,
    );
    expect(response.status).toBe(401);
  });
});
