// /api/mcp over the server's real runtime: the official SDK client, the stored policy, relays a
// person decides through POST /api/chat/relay/:id, the session's run and its transcript.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { setPolicy } from '@/app/api/policy/set-policy.test-support';
import { POST as decideRelay } from '@/app/api/chat/relay/[relayId]/route';
import { PATCH as patchToken } from '@/app/api/tokens/[id]/route';
import { DELETE, GET, POST } from './route';

const server = withRouteRuntime('gatehouse-mcp-');

const rules = [
  { action: 'allow', tool: 'list_files' },
  { action: 'deny', tool: 'bash', params: { command: 'rm **' } },
  { action: 'ask', tool: 'write_file' },
  { action: 'ask', tool: 'edit_file', timeoutS: 1 },
];

const routes: Record<string, (request: Request, context: typeof noParams) => Promise<Response>> = { GET, POST, DELETE };
const fetchRoute = async (url: string | URL | Request, init?: RequestInit) => {
  const request = new Request(url, init);
  return routes[request.method]!(request, noParams);
};

async function connect(
  name: string,
  { token = ADMIN_TOKEN, elicit }: { token?: string; elicit?: () => ElicitResult } = {},
) {
  const client = new Client({ name, version: '1.0.0' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async () => elicit());
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/api/mcp'), {
      fetch: fetchRoute,
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

async function pendingRelay(agent: string) {
  const { q } = server.rt();
  for (let i = 0; i < 400; i++) {
    const run = (await q.runs.listRuns({ source: 'mcp' })).items.find((r) => r.agent === agent);
    const [relay] = run ? await q.relays.listPendingRelays({ runId: run.id }) : [];
    if (run && relay) return { run, relay };
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no pending relay');
}

describe('/api/mcp', () => {
  it('refuses an anonymous client with 401', async () => {
    await setPolicy(rules);
    const response = await POST(
      new Request('http://127.0.0.1:3000/api/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{}',
      }),
      noParams,
    );
    expect(response.status).toBe(401);
  });

  it('answers a body that is not JSON with a JSON-RPC parse error, never a 500', async () => {
    const response = await POST(
      new Request('http://127.0.0.1:3000/api/mcp', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: '{"jsonrpc": "2.0", ',
      }),
      noParams,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 }, id: null });
  });

  it('lists the built-in tools; an allowed call runs, in a run named after the client', async () => {
    const client = await connect('lister');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['bash', 'read_file', 'list_files', 'write_file', 'edit_file', 'fetch_url']),
    );
    expect(tools.find((t) => t.name === 'read_file')?.annotations).toMatchObject({ readOnlyHint: true });
    const result = await client.callTool({ name: 'list_files', arguments: { path: '.' } });
    expect(result.isError).toBeFalsy();
    // The call's claim and result are stored right after the answer (a client over a socket
    // cannot read the run sooner); in-process the answer arrives before they are.
    await server.rt().external.flushRecords();
    const { q } = server.rt();
    const run = (await q.runs.listRuns({ source: 'mcp' })).items.find((r) => r.agent === 'lister');
    expect(run).toBeDefined();
    const events = await q.events.listEvents({ runId: run!.id });
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['tool_call', 'tool_result']));
    // The claim is finished with the result the tool_result event reports, but for its output,
    // which only the event holds (stored in the same statement).
    const resultEvent = events.find((e) => e.type === 'tool_result')!;
    const callId = String(resultEvent.data.toolCallId);
    expect(resultEvent.data).toMatchObject({ name: 'list_files', isError: false, agentId: 'lister' });
    expect(resultEvent.data.output).toEqual(expect.any(String));
    const execution = await q.toolExecutions.getToolExecution({ runId: run!.id, toolCallId: callId });
    expect(execution?.status).toBe('done');
    expect(execution?.result).toEqual({ tool: 'list_files', agent: 'lister', isError: false });
  });

  it('a denied call returns isError with the reason', async () => {
    const client = await connect('denied');
    const result = await client.callTool({ name: 'bash', arguments: { command: 'rm -rf x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Tool execution denied');
  });

  it('elicitation accept writes the file; decline writes nothing', async () => {
    const workspace = server.rt().config.workspace;
    const yes = await connect('eliciting-yes', { elicit: () => ({ action: 'accept' }) });
    expect(
      (await yes.callTool({ name: 'write_file', arguments: { path: 'yes.txt', content: 'ok' } })).isError,
    ).toBeFalsy();
    expect(await readFile(path.join(workspace, 'yes.txt'), 'utf8')).toBe('ok');
    const no = await connect('eliciting-no', { elicit: () => ({ action: 'decline' }) });
    const declined = await no.callTool({ name: 'write_file', arguments: { path: 'no.txt', content: 'no' } });
    expect(declined.isError).toBe(true);
    await expect(readFile(path.join(workspace, 'no.txt'), 'utf8')).rejects.toThrow();
  });

  it('a client without elicitation waits for the decision made with POST /api/chat/relay/:id', async () => {
    const client = await connect('waiting');
    const call = client.callTool({ name: 'write_file', arguments: { path: 'waited.txt', content: 'w' } });
    const { relay } = await pendingRelay('waiting');
    const decided = await decideRelay(
      apiRequest('POST', `/api/chat/relay/${relay.id}`, {
        json: { sessionId: relay.sessionId, response: { approved: true } },
      }),
      { params: Promise.resolve({ relayId: relay.id }) },
    );
    expect(decided.status).toBe(200);
    expect((await call).isError).toBeFalsy();
    expect(await readFile(path.join(server.rt().config.workspace, 'waited.txt'), 'utf8')).toBe('w');
  });

  it('a token set to decline without elicitation is denied at once', async () => {
    const token = await server.tokenFor('user');
    const { q } = server.rt();
    const me = (await q.tokens.listApiTokens({})).at(-1)!;
    const patched = await patchToken(
      apiRequest('PATCH', `/api/tokens/${me.id}`, { token, json: { mcpWithoutElicitation: 'decline' } }),
      { params: Promise.resolve({ id: me.id }) },
    );
    expect(patched.status).toBe(200);
    const client = await connect('decliner', { token });
    const result = await client.callTool({ name: 'write_file', arguments: { path: 'declined.txt', content: 'x' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('cannot confirm');
  });

  it('not approved by the deadline: isError with the reason, and nothing ran', async () => {
    const client = await connect('too-slow');
    const result = await client.callTool({
      name: 'edit_file',
      arguments: { path: 'yes.txt', old: 'ok', new: 'changed' },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Approval timeout');
    expect(await readFile(path.join(server.rt().config.workspace, 'yes.txt'), 'utf8')).toBe('ok');
  });

  it('an elicitation accept that cannot decide alone (two approvers needed) is taken (202), and the call waits for them', async () => {
    await setPolicy([{ action: 'ask', tool: 'write_file', approvals: { count: 2 } }, ...rules]);
    try {
      const answers: number[] = [];
      const client = new Client(
        { name: 'eliciting-quorum', version: '1.0.0' },
        { capabilities: { elicitation: { form: {} } } },
      );
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept' }));
      await client.connect(
        new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/api/mcp'), {
          fetch: async (url, init) => {
            const response = await fetchRoute(url, init);
            // The client's answer to the confirmation: a JSON-RPC result, no method.
            if (typeof init?.body === 'string' && init.body.includes('"result"')) answers.push(response.status);
            return response;
          },
          requestInit: { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
        }),
      );
      const call = client.callTool({ name: 'write_file', arguments: { path: 'quorum.txt', content: 'q' } });
      const { relay } = await pendingRelay('eliciting-quorum');
      for (let i = 0; i < 200 && answers.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(answers).toEqual([202]);
      expect((await server.rt().q.relays.getRelay({ id: relay.id }))?.status).toBe('pending');
      const { broker } = server.rt();
      await broker.decide(relay.id, { approved: true }, { user: 'first', role: 'approver' });
      await broker.decide(relay.id, { approved: true }, { user: 'second', role: 'approver' });
      expect((await call).isError).toBeFalsy();
      expect(await readFile(path.join(server.rt().config.workspace, 'quorum.txt'), 'utf8')).toBe('q');
    } finally {
      await setPolicy(rules);
    }
  });

  it('GET and DELETE are 405', async () => {
    expect((await GET(apiRequest('GET', '/api/mcp'), noParams)).status).toBe(405);
    expect((await DELETE(apiRequest('DELETE', '/api/mcp'), noParams)).status).toBe(405);
  });
});
