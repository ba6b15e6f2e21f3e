// /api/mcp through the custom server's fast path (lib/server/routes/fast-routes.ts) over real HTTP,
// with the server's runtime: the official SDK client initializes (the SDK's answer), lists and
// calls (the direct answer, JSON), confirms an asked call through elicitation (a stream), and a
// client that leaves while its call waits finds it not run after the approval.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { createFastRoutes } from '@/lib/server/routes/fast-routes';
import { decideRelay } from '@/lib/server/routes/decide-relay';
import { mcpPost } from '@/lib/server/mcp-server/route';
import { setPolicy } from '@/app/api/policy/set-policy.test-support';
import { connectMcp, listenFast, type FastServer } from './fast-server.test-support';

const runtime = withRouteRuntime('gatehouse-mcp-fast-');
let server: FastServer;
let nextServed = 0;
/** Responses whose client went away before they ended, as the server saw it. */
let leftEarly = 0;

beforeAll(async () => {
  server = await listenFast(createFastRoutes(decideRelay, undefined, mcpPost), {
    seen: (_req, res) => res.once('close', () => void (res.writableFinished || leftEarly++)),
    notFast: (req, res) => {
      if (req.method === 'POST') nextServed++;
      res.statusCode = 405; // GET and DELETE are Next's (405)
      res.end();
    },
  });
  await setPolicy([
    { action: 'allow', tool: 'list_files' },
    { action: 'ask', tool: 'write_file' },
  ]);
});
afterAll(() => server.close());

const connect = (name: string, elicit?: () => { action: 'accept' }) =>
  connectMcp(server.base, name, ADMIN_TOKEN, elicit);

describe('/api/mcp on the fast path', () => {
  it('initializes, lists and runs an allowed call, all without Next', async () => {
    nextServed = 0;
    const client = await connect('fast');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_files');
    const result = await client.callTool({ name: 'list_files', arguments: { path: '.' } });
    expect(result.isError).toBeFalsy();
    expect(nextServed).toBe(0);
    await client.close();
  });

  it('an asked call confirmed through elicitation runs once (the answer streams)', async () => {
    const client = await connect('fast-eliciting', () => ({ action: 'accept' }));
    const result = await client.callTool({ name: 'write_file', arguments: { path: 'fast.txt', content: 'ok' } });
    expect(result.isError).toBeFalsy();
    expect(await readFile(path.join(runtime.rt().config.workspace, 'fast.txt'), 'utf8')).toBe('ok');
    await client.close();
  });

  it('a client gone while its call waits: approved later, the call does not run, and the run says why', async () => {
    const client = await connect('fast-leaving');
    const abort = new AbortController();
    const { q } = runtime.rt();
    const call = client
      .callTool({ name: 'write_file', arguments: { path: 'left.txt', content: 'no' } }, undefined, {
        signal: abort.signal,
      })
      .catch(() => undefined);
    let relay: Awaited<ReturnType<typeof q.relays.listPendingRelays>>[number] | undefined;
    let runId = '';
    await expect
      .poll(
        async () => {
          const run = (await q.runs.listRuns({ source: 'mcp' })).items.find((r) => r.agent === 'fast-leaving');
          runId = run?.id ?? '';
          [relay] = run ? await q.relays.listPendingRelays({ runId: run.id }) : [];
          return relay !== undefined;
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    // Gone without a cancel: the transport is closed under the waiting request, and the server saw it.
    const before = leftEarly;
    await client.close();
    await call;
    await expect.poll(() => leftEarly, { timeout: 10_000 }).toBeGreaterThan(before);
    const decided = await decideRelay(
      apiRequest('POST', `/api/chat/relay/${relay!.id}`, {
        json: { sessionId: relay!.sessionId, response: { approved: true } },
      }),
      { params: Promise.resolve({ relayId: relay!.id }) },
    );
    expect(decided.status).toBe(200);
    await expect
      .poll(
        async () =>
          (await q.events.listEvents({ runId })).some(
            (e) => e.type === 'tool_result' && String(e.data.output).includes('Not run'),
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect(readFile(path.join(runtime.rt().config.workspace, 'left.txt'), 'utf8')).rejects.toThrow();
  }, 30_000);
});
