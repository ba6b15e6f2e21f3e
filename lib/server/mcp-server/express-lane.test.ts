// The express lane behind the custom server's fast path, on a real HTTP server, with the official
// SDK client (and raw requests) on the other side: the allowed call it serves, and everything it
// must hand back, untouched and unrecorded, to the usual path (handleMcpPost), which answers it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthUser } from '../../auth';
import { createFastRoutes } from '../routes/fast-routes';
import { handleMcpPost } from './endpoint';
import { expressMcpCall, type LaneOutcome } from './express-lane';
import { readMcpBody } from './route';
import { alice, setup, textTool } from './test-support/harness';

const MAX_BODY = 4096;
const text = (result: unknown) =>
  ((result as { content: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('\n');

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(
  rules: Record<string, 'allow' | 'deny' | 'ask'>,
  options: { exposed?: string[]; slowMs?: number; user?: AuthUser & { tokenId: string } } = {},
) {
  const harness = setup(rules, options);
  const { deps, ran } = harness;
  const tools = Object.keys(rules).map((name) => textTool(name, ran));
  if (options.slowMs)
    for (const tool of tools) {
      const run = tool.run;
      tool.run = async (params, ctx) => {
        await new Promise((resolve) => setTimeout(resolve, options.slowMs));
        return run(params, ctx);
      };
    }
  deps.tools = async () => tools;
  deps.toolNow = (name) => tools.find((tool) => tool.name === name);
  deps.exposedNow = () => ({ patterns: options.exposed });
  // What the token cache holds: the lane serves only callers found there.
  const cached = new Map([['Bearer alice-token', options.user ?? alice]]);
  const outcomes: Array<'served' | 'handed back'> = [];
  // The usual path as route.ts runs it (its token check aside).
  const usual = async (request: Parameters<typeof handleMcpPost>[0]) => {
    if (request.headers.get('authorization') !== 'Bearer alice-token') return new Response(null, { status: 401 });
    const read = await readMcpBody(request, MAX_BODY);
    return read instanceof Response ? read : handleMcpPost(request, read.body, alice, deps);
  };
  const routes = createFastRoutes(
    async () => new Response(null, { status: 404 }),
    undefined,
    usual,
    undefined,
    undefined,
    async (req, res, request) => {
      const outcome: LaneOutcome = await expressMcpCall(req, res, request, {
        endpoint: deps,
        cachedUser: (authorization) => cached.get(authorization),
        maxBodyBytes: MAX_BODY,
      });
      outcomes.push(outcome.served ? 'served' : 'handed back');
      return outcome;
    },
  );
  const server = http.createServer((req, res) => {
    if (!routes(req, res)) res.writeHead(404).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`;

  async function connect(opts: { elicit?: boolean } = {}) {
    const client = new Client(
      { name: 'lane-client', version: '1.0.0' },
      { capabilities: opts.elicit ? { elicitation: { form: {} } } : {} },
    );
    if (opts.elicit) client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: 'Bearer alice-token' } },
    });
    await client.connect(transport);
    outcomes.length = 0; // initialize is never the lane's
    return { client, sessionId: transport.sessionId! };
  }

  /** The headers an MCP client sends on its session. */
  const clientHeaders = (sessionId: string) => ({
    authorization: 'Bearer alice-token',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': sessionId,
  });
  /** One raw POST as an MCP client would send it (headers overridable). */
  const post = (body: string, sessionId: string, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { ...clientHeaders(sessionId), ...headers }, body });

  return { ...harness, url, outcomes, connect, post, cached, clientHeaders };
}

const callBody = (params: unknown, id: unknown = 7) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('the MCP express lane', () => {
  it('serves an allowed call: run once, its result recorded, answered as JSON', async () => {
    const { connect, outcomes, ran, gate, post } = await start({ echo: 'allow' });
    const { client, sessionId } = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    expect(text(result)).toBe('echo ran with hi');
    expect(outcomes).toEqual(['served']);
    expect(ran).toEqual(['echo:hi']);
    expect(gate.allowedAtOnce).toEqual([expect.objectContaining({ tool: 'echo', params: { text: 'hi' } })]);
    expect(gate.calls).toEqual([]); // the usual path's decide was never asked
    expect(gate.results).toEqual([
      expect.objectContaining({ tool: 'echo', output: 'echo ran with hi', isError: false }),
    ]);

    const raw = await post(callBody({ name: 'echo', arguments: { text: 'again' } }, 'id-2'), sessionId);
    expect(raw.headers.get('content-type')).toBe('application/json');
    expect(await raw.json()).toEqual({
      jsonrpc: '2.0',
      id: 'id-2',
      result: { content: [{ type: 'text', text: 'echo ran with again' }] },
    });
  });

  it('a call id claimed already is not run again', async () => {
    const { connect, post, ran } = await start({ echo: 'allow' });
    const { sessionId } = await connect();
    const body = callBody({ name: 'echo', arguments: { text: 'once' } }, 99);
    await (await post(body, sessionId)).json();
    const second = (await (await post(body, sessionId)).json()) as { result: unknown };
    expect(text(second.result)).toContain('has already been executed');
    expect(ran).toEqual(['echo:once']);
  });

  it('hands back a call the policy denies or asks about, unrecorded; the usual path decides it once', async () => {
    const { connect, outcomes, ran, gate } = await start({ rm: 'deny', shout: 'ask' });
    const { client } = await connect({ elicit: true });
    const denied = await client.callTool({ name: 'rm', arguments: { text: 'x' } });
    expect(text(denied)).toContain('Tool execution denied');
    const asked = await client.callTool({ name: 'shout', arguments: { text: 'y' } });
    expect(text(asked)).toBe('shout ran with y');
    // The two calls and the client's answer to the confirmation (a response message).
    expect(outcomes).toEqual(['handed back', 'handed back', 'handed back']);
    expect(gate.allowedAtOnce).toEqual([]);
    expect(gate.calls.map((c) => c.tool)).toEqual(['rm', 'shout']);
    expect(ran).toEqual(['shout:y']);
  });

  it('hands back invalid arguments, an unknown or unexposed tool, and a call with a progress token', async () => {
    const { connect, outcomes, ran, gate } = await start({ echo: 'allow', shout: 'allow' }, { exposed: ['echo'] });
    const { client } = await connect();
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 3 } }))).toContain('Invalid arguments');
    expect(text(await client.callTool({ name: 'shout', arguments: { text: 'x' } }))).toContain('Unknown tool');
    expect(text(await client.callTool({ name: 'nope', arguments: {} }))).toContain('Unknown tool');
    const withProgress = await client.callTool({ name: 'echo', arguments: { text: 'p' } }, undefined, {
      onprogress: () => {},
    });
    expect(text(withProgress)).toBe('echo ran with p');
    expect(outcomes).toEqual(['handed back', 'handed back', 'handed back', 'handed back']);
    expect(gate.allowedAtOnce).toEqual([]);
    expect(ran).toEqual(['echo:p']);
  });

  it('hands back a caller it cannot vouch for without waiting, or whose session is not theirs', async () => {
    const { connect, outcomes, post, cached, ran } = await start({ echo: 'allow' });
    const { sessionId } = await connect();
    const body = callBody({ name: 'echo', arguments: { text: 'x' } });
    // Not in the token cache: the usual path authenticates (here it knows the token).
    cached.clear();
    expect((await post(body, sessionId)).status).toBe(200);
    cached.set('Bearer alice-token', { ...alice, role: 'viewer' as AuthUser['role'] });
    await post(callBody({ name: 'echo', arguments: { text: 'y' } }, 8), sessionId);
    cached.set('Bearer alice-token', { ...alice, tokenId: 'another-token' });
    await post(callBody({ name: 'echo', arguments: { text: 'z' } }, 9), sessionId);
    expect(outcomes).toEqual(['handed back', 'handed back', 'handed back']);
    expect(ran).toEqual(['echo:x', 'echo:y', 'echo:z']);
  });

  it('hands back browser requests, odd headers and every body that is not exactly one plain tools/call', async () => {
    const { connect, outcomes, post, gate, ran } = await start({ echo: 'allow' });
    const { sessionId } = await connect();
    const call = { name: 'echo', arguments: { text: 'x' } };
    const cases: Array<[string, Record<string, string>?]> = [
      [callBody(call), { origin: 'http://127.0.0.1' }],
      [callBody(call), { 'sec-fetch-site': 'same-origin' }],
      [callBody(call), { accept: 'application/json' }],
      [callBody(call), { 'mcp-protocol-version': '1999-01-01' }],
      [callBody(call), { 'mcp-session-id': `${sessionId}x` }],
      [`[${callBody(call)}]`],
      [callBody({ ...call, _meta: { progressToken: 1 } })],
      [callBody({ ...call, task: {} })],
      [callBody({ name: 'echo', arguments: null })],
      [callBody({ name: 'echo', arguments: ['x'] })],
      [callBody(call, null)],
      [callBody(call, 1.5)],
      [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: call, extra: true })],
      [JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })],
      [callBody({ name: 'echo', arguments: { text: 'nul\u0000' } })],
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"__proto__":{"text":"x"}}}}',
      ],
      ['{not json'],
      ['x'.repeat(MAX_BODY + 1)],
    ];
    for (const [body, headers] of cases) await (await post(body, sessionId, headers)).arrayBuffer();
    expect(outcomes).toEqual(cases.map(() => 'handed back'));
    expect(gate.allowedAtOnce).toEqual([]);
    // What ran, ran on the usual path's own decision (one id for all: it ran once at most).
    expect(ran.length).toBeLessThanOrEqual(1);
    expect(gate.calls.length).toBeGreaterThanOrEqual(ran.length);
  });

  it('the usual path reads the body the lane read: its answers are the same as without the lane', async () => {
    const { connect, post } = await start({ echo: 'allow' });
    const { sessionId } = await connect();
    const notJson = await post('{not json', sessionId);
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
    expect((await post('x'.repeat(MAX_BODY + 1), sessionId)).status).toBe(413);
    const list = await post(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }), sessionId);
    expect(((await list.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(1);
  });

  it('does not run an allowed call when its client left before the run', async () => {
    const { connect, url, gate, ran, clientHeaders } = await start({ echo: 'allow' });
    const { sessionId } = await connect();
    let release!: () => void;
    gate.holdAtOnce = new Promise<void>((resolve) => (release = resolve));
    const request = http.request(url, { method: 'POST', headers: clientHeaders(sessionId) });
    request.on('error', () => {});
    request.end(callBody({ name: 'echo', arguments: { text: 'late' } }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    request.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await expect.poll(() => gate.results.length).toBe(1);
    expect(gate.results[0]!.output).toContain('Not run: the MCP client was gone');
    expect(gate.allowedAtOnce).toHaveLength(1);
    expect(ran).toEqual([]);
  });

  it('a slow tool gets a stream (headers out at once), then its result as an SSE event', async () => {
    const { connect, post } = await start({ echo: 'allow' }, { slowMs: 1_200 });
    const { sessionId } = await connect();
    const response = await post(callBody({ name: 'echo', arguments: { text: 'slow' } }), sessionId);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const body = await response.text();
    expect(body).toContain('event: message');
    expect(body).toContain('echo ran with slow');
  });
});
