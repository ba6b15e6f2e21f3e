// The MCP express lane (lib/server/mcp-server/express-lane.ts) wired as the server wires it, on the
// server's runtime, over real HTTP with the official SDK client: it serves an allowed call with the
// same records as the usual path, and a policy saved, a token revoked or a call that asks reach
// the very next call, through the usual path.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashToken } from '@/lib/auth/tokens';
import { withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { createFastRoutes } from '@/lib/server/routes/fast-routes';
import { decideRelay } from '@/lib/server/routes/decide-relay';
import { mcpPost } from '@/lib/server/mcp-server/route';
import { mcpExpressLane } from '@/lib/server/mcp-server/express-lane-runtime';
import { setPolicy } from '@/app/api/policy/set-policy.test-support';
import { connectMcp, listenFast, type FastServer } from './fast-server.test-support';

const runtime = withRouteRuntime('gatehouse-mcp-lane-');
let server: FastServer;

beforeAll(async () => {
  server = await listenFast(createFastRoutes(decideRelay, undefined, mcpPost, undefined, undefined, mcpExpressLane()));
  await setPolicy([
    { action: 'allow', tool: 'list_files' },
    { action: 'ask', tool: 'write_file' },
  ]);
});
afterAll(() => server.close());

const connect = (name: string, token: string, elicit?: () => { action: 'accept' }) =>
  connectMcp(server.base, name, token, elicit);

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

describe('the MCP express lane on the server runtime', () => {
  it('serves allowed calls once the token and its choice of tools are in memory, with the usual records', async () => {
    const { external, q } = runtime.rt();
    const atOnce = vi.spyOn(external, 'decideAtOnce');
    const decide = vi.spyOn(external, 'decide');
    try {
      const client = await connect('lane', await runtime.tokenFor('user'));
      await client.listTools();
      for (const dir of ['.', '.']) {
        const result = await client.callTool({ name: 'list_files', arguments: { path: dir } });
        expect(result.isError).toBeFalsy();
      }
      expect(atOnce).toHaveBeenCalledTimes(2);
      expect(decide).not.toHaveBeenCalled();
      await external.flushRecords();
      const run = (await q.runs.listRuns({ source: 'mcp' })).items.find((r) => r.agent === 'lane')!;
      const events = await q.events.listEvents({ runId: run.id });
      expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result', 'tool_call', 'tool_result']);
      const executions = await Promise.all(
        ['mcp-2', 'mcp-3'].map((toolCallId) => q.toolExecutions.getToolExecution({ runId: run.id, toolCallId })),
      );
      expect(executions.map((e) => e?.status)).toEqual(['done', 'done']);
      await client.close();
    } finally {
      atOnce.mockRestore();
      decide.mockRestore();
    }
  });

  it('a call that asks goes the usual way (confirmed through elicitation, it runs once)', async () => {
    const { external } = runtime.rt();
    const decide = vi.spyOn(external, 'decide');
    try {
      const client = await connect('lane-asking', await runtime.tokenFor('user'), () => ({ action: 'accept' }));
      await client.listTools();
      const result = await client.callTool({ name: 'write_file', arguments: { path: 'lane.txt', content: 'ok' } });
      expect(result.isError).toBeFalsy();
      expect(decide).toHaveBeenCalledTimes(1);
      await client.close();
    } finally {
      decide.mockRestore();
    }
  });

  it('a request id longer than 200 characters is handed back, and the usual path refuses it before the gate', async () => {
    const { external } = runtime.rt();
    const atOnce = vi.spyOn(external, 'decideAtOnce');
    try {
      const token = await runtime.tokenFor('user');
      const headers = {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const post = (body: object, session?: string) =>
        fetch(`${server.base}/api/mcp`, {
          method: 'POST',
          headers: session ? { ...headers, 'mcp-session-id': session } : headers,
          body: JSON.stringify({ jsonrpc: '2.0', ...body }),
        });
      const clientInfo = { name: 'lane-long-id', version: '1' };
      const init = await post({
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo },
      });
      const session = init.headers.get('mcp-session-id')!;
      await init.text();
      await (await post({ id: 2, method: 'tools/list' }, session)).text();
      const call = (id: string) =>
        post({ id, method: 'tools/call', params: { name: 'list_files', arguments: { path: '.' } } }, session);
      const taken = await call('a'.repeat(200));
      expect(taken.status).toBe(200);
      expect(atOnce).toHaveBeenCalledTimes(1);
      const refused = await call('b'.repeat(201));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { code: -32600 } });
      expect(atOnce).toHaveBeenCalledTimes(1);
    } finally {
      atOnce.mockRestore();
    }
  });

  it('a policy saved or a token revoked applies to the very next call', async () => {
    const { q } = runtime.rt();
    const token = await runtime.tokenFor('user');
    const client = await connect('lane-changes', token);
    await client.listTools();
    expect((await client.callTool({ name: 'list_files', arguments: { path: '.' } })).isError).toBeFalsy();
    await setPolicy([{ action: 'deny', tool: 'list_files' }]);
    const denied = await client.callTool({ name: 'list_files', arguments: { path: '.' } });
    expect(text(denied)).toContain('Tool execution denied');
    await setPolicy([{ action: 'allow', tool: 'list_files' }]);
    expect((await client.callTool({ name: 'list_files', arguments: { path: '.' } })).isError).toBeFalsy();
    const found = await q.tokens.findApiToken({ tokenHash: hashToken(token) });
    await q.tokens.revokeApiToken({ id: found!.token.id });
    await expect(client.callTool({ name: 'list_files', arguments: { path: '.' } })).rejects.toThrow(/unauthorized/);
  });
});
