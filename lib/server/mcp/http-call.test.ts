// Tool calls over Streamable HTTP through Upstream, which sends them in one POST on the SDK client's
// session (http-call.ts), against the SDK's own server answering with JSON and with SSE: the result,
// the other messages on the call's stream, error answers, timeouts and aborts (the server sees the
// cancellation), output schemas, and the session, version and credentials each call carries.
import { EventEmitter, once } from 'node:events';
import {
  CallToolRequestSchema,
  ErrorCode,
  LATEST_PROTOCOL_VERSION,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { HttpServerConfig } from '../../agent/tools/mcp/config';
import { MemoryPinStore } from './pins';
import { startSdkServer, type SdkTestServer } from './sdk-server.test-support';
import { silentLog } from './test-support';
import { Upstream, type UpstreamOptions } from './upstream';

/** Resolves with the tool's signal once a `hang` call started; the test then waits on its abort. */
const started = new EventEmitter();

/** Tools beside `notes`: one that talks on its stream before answering, one that never answers. */
function tools(server: McpServer) {
  server.server.registerCapabilities({ logging: {} });
  server.registerTool('chatty', { inputSchema: {} }, async (_args, extra) => {
    await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'working' } });
    // The server's own request on the call's stream: the SDK client must answer it.
    await extra.sendRequest({ method: 'ping' }, z.object({}));
    await extra.sendNotification({ method: 'notifications/tools/list_changed' });
    return { content: [{ type: 'text', text: 'done' }] };
  });
  server.registerTool('hang', { inputSchema: {} }, async (_args, extra) => {
    started.emit('call', extra.signal);
    await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
    return { content: [{ type: 'text', text: 'too late' }] };
  });
  server.registerTool('throws', { inputSchema: {} }, async () => {
    throw new McpError(ErrorCode.InvalidParams, 'no such note');
  });
}

/**
 * A server that does not check its own answers (as a hand-written or older server): `typed` has an
 * output schema and returns what `mode` asks; `refused` answers with a JSON-RPC error.
 */
function unchecked(server: McpServer) {
  server.registerTool(
    'typed',
    { inputSchema: { mode: z.enum(['none', 'bad', 'good', 'error']) }, outputSchema: { n: z.number() } },
    async () => ({ content: [], structuredContent: { n: 1 } }),
  );
  server.registerTool('refused', { inputSchema: {} }, async () => ({ content: [] }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
    // A plain error with a code: its message goes out as it is (an McpError's already says "MCP error").
    if (request.params.name === 'refused')
      throw Object.assign(new Error('Unknown note: 7'), { code: ErrorCode.InvalidParams });
    const content = [{ type: 'text' as const, text: 'typed' }];
    switch (request.params.arguments?.mode) {
      case 'bad':
        return { content, structuredContent: { n: 'one' } };
      case 'good':
        return { content, structuredContent: { n: 1 } };
      case 'error':
        return { content, isError: true };
      default:
        return { content };
    }
  });
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function connect(url: string, extra: Partial<HttpServerConfig> = {}, options: Partial<UpstreamOptions> = {}) {
  const listings = new EventEmitter();
  const upstream = new Upstream({
    name: 'sdk',
    config: { type: 'http', url, ...extra },
    pins: new MemoryPinStore(),
    log: silentLog(),
    backoff: { initialMs: 60_000, maxMs: 60_000 },
    onToolsChanged: () => listings.emit('listed'),
    ...options,
  });
  cleanups.push(() => upstream.close());
  await upstream.connect();
  return { upstream, listings };
}

const call = (upstream: Upstream, tool: string, args: Record<string, unknown> = {}, signal?: AbortSignal) =>
  upstream.callTool(tool, args, signal ?? new AbortController().signal);
const text = (result: { content: unknown }) => JSON.stringify(result.content);
const callsOf = (server: SdkTestServer) =>
  server.posts.filter((p) => (p.body as { method?: string }).method === 'tools/call');

describe.each([
  { answer: 'JSON', enableJsonResponse: true },
  { answer: 'SSE', enableJsonResponse: false },
])('a tools/call answered with $answer', ({ enableJsonResponse }) => {
  let server: SdkTestServer;
  let raw: SdkTestServer;
  let upstream: Upstream;
  let rawUpstream: Upstream;
  beforeAll(async () => {
    server = await startSdkServer({ enableJsonResponse, setup: tools });
    raw = await startSdkServer({ enableJsonResponse, setup: unchecked });
    cleanups.push(
      () => server.close(),
      () => raw.close(),
    );
    ({ upstream } = await connect(
      server.url,
      { headers: { Authorization: 'Bearer s3cret', 'X-Team': 'blue' }, timeoutMs: 200 },
      { callMeta: (tool, args) => (tool === 'notes' ? { 'gatehouse/proof': `for ${String(args.text)}` } : undefined) },
    ));
    ({ upstream: rawUpstream } = await connect(raw.url));
  });

  it("gives the tool's result through Upstream.callTool", async () => {
    expect(await call(upstream, 'notes', { text: 'one' })).toEqual({
      content: [{ type: 'text', text: 'stored: one' }],
    });
    expect(server.calls).toContainEqual({ tool: 'notes', args: { text: 'one' } });
    expect(upstream.state).toBe('ready');
  });

  it("carries the SDK session's id and protocol version, the configured headers and the call's _meta", async () => {
    await call(upstream, 'notes', { text: 'headers' });
    const [own] = callsOf(server).slice(-1);
    // The SDK's own requests (its tools/list) on the same session show what it negotiated.
    const listing = server.posts.find((p) => (p.body as { method?: string }).method === 'tools/list')!;
    expect(own!.headers['mcp-session-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(own!.headers['mcp-session-id']).toBe(listing.headers['mcp-session-id']);
    expect(own!.headers['mcp-protocol-version']).toBe(listing.headers['mcp-protocol-version']);
    expect(own!.headers['mcp-protocol-version']).toBe(LATEST_PROTOCOL_VERSION);
    expect(own!.headers).toMatchObject({ authorization: 'Bearer s3cret', 'x-team': 'blue' });
    expect(server.authorizations.at(-1)).toBe('Bearer s3cret');
    expect(own!.body).toMatchObject({
      method: 'tools/call',
      id: expect.stringMatching(/^gatehouse-\d+$/),
      params: { name: 'notes', arguments: { text: 'headers' }, _meta: { 'gatehouse/proof': 'for headers' } },
    });
  });

  it('arguments the server refuses come back as its error result; the upstream stays ready', async () => {
    const result = await call(upstream, 'notes', { text: 5 });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Input validation error/);
    expect(upstream.state).toBe('ready');
  });

  it('a tool that throws McpError comes back as an error result; the upstream stays ready', async () => {
    const result = await call(upstream, 'throws');
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toMatch(/no such note/);
    expect(upstream.state).toBe('ready');
  });

  it('a JSON-RPC error answer is an error result with its message; the upstream stays ready', async () => {
    const result = await call(rawUpstream, 'refused');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/mcp__sdk__refused failed: MCP error -32602: Unknown note: 7/);
    expect(rawUpstream.state).toBe('ready');
  });

  it('a call unanswered within timeoutMs fails as timed out, and the server sees it cancelled', async () => {
    const signal = once(started, 'call') as Promise<[AbortSignal]>;
    const result = await call(upstream, 'hang');
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/mcp__sdk__hang failed: .*Request timed out/);
    const [serverSignal] = await signal;
    if (!serverSignal.aborted) await once(serverSignal, 'abort');
    const id = (callsOf(server).at(-1)!.body as { id: string }).id;
    expect(server.posts.map((p) => p.body)).toContainEqual(
      expect.objectContaining({ method: 'notifications/cancelled', params: { requestId: id, reason: 'timeout' } }),
    );
    expect(upstream.state).toBe('ready');
    expect((await call(upstream, 'notes', { text: 'after' })).isError).toBeUndefined();
  });

  it("an abort of the caller's signal fails the call, and the server sees it cancelled", async () => {
    const controller = new AbortController();
    const signal = once(started, 'call') as Promise<[AbortSignal]>;
    const pending = call(upstream, 'hang', {}, controller.signal);
    const [serverSignal] = await signal;
    controller.abort(new Error('the run was stopped'));
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/the run was stopped/);
    if (!serverSignal.aborted) await once(serverSignal, 'abort');
    expect(upstream.state).toBe('ready');
  });

  it('an output schema without structured content is refused, as the SDK client does', async () => {
    const result = await call(rawUpstream, 'typed', { mode: 'none' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Tool typed has an output schema but did not return structured content/);
    expect(rawUpstream.state).toBe('ready');
  });

  it('structured content that does not match the output schema is refused', async () => {
    const result = await call(rawUpstream, 'typed', { mode: 'bad' });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Structured content does not match the tool's output schema/);
    expect(rawUpstream.state).toBe('ready');
  });

  it('matching structured content passes, and an error result needs none', async () => {
    expect(await call(rawUpstream, 'typed', { mode: 'good' })).toEqual({
      content: [{ type: 'text', text: 'typed' }],
      structuredContent: { n: 1 },
    });
    expect(await call(rawUpstream, 'typed', { mode: 'error' })).toEqual({
      content: [{ type: 'text', text: 'typed' }],
      isError: true,
    });
  });
});

describe('closing the upstream', () => {
  it.each([
    { answer: 'JSON', enableJsonResponse: true },
    { answer: 'SSE', enableJsonResponse: false },
  ])("fails its calls in flight at once ($answer), as the SDK's client does", async ({ enableJsonResponse }) => {
    const server = await startSdkServer({ enableJsonResponse, setup: tools });
    cleanups.push(() => server.close());
    const { upstream } = await connect(server.url);
    const signal = once(started, 'call');
    const pending = call(upstream, 'hang');
    await signal;
    await upstream.close();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/mcp__sdk__hang failed: MCP error -32000: Connection closed/);
    expect(upstream.state).toBe('closed');
  });
});

describe('an SSE answer with other messages before the result', () => {
  it("gives the result; the SDK client gets the stream's notifications and answers its requests", async () => {
    const server = await startSdkServer({ setup: tools });
    cleanups.push(() => server.close());
    const { upstream, listings } = await connect(server.url);
    // list_changed sent on the call's own stream: Upstream lists the tools again.
    const refreshed = once(listings, 'listed');
    const listingsBefore = server.posts.filter((p) => (p.body as { method?: string }).method === 'tools/list').length;
    expect(await call(upstream, 'chatty')).toEqual({ content: [{ type: 'text', text: 'done' }] });
    await refreshed;
    expect(server.posts.filter((p) => (p.body as { method?: string }).method === 'tools/list')).toHaveLength(
      listingsBefore + 1,
    );
    expect(upstream.state).toBe('ready');
  });
});

describe('an SSE stream the server closes before the result (resumable, SEP-1699 polling)', () => {
  it('is resumed with Last-Event-ID, as the SDK client does, and gives the result', async () => {
    const server = await startSdkServer({
      resumable: { retryInterval: 1 },
      setup: (mcp) =>
        mcp.registerTool('polled', { inputSchema: {} }, async (_args, extra) => {
          // The server ends the POST's stream: the client must come back for the result.
          extra.closeSSEStream?.();
          await extra.sendNotification({ method: 'notifications/tools/list_changed' });
          return { content: [{ type: 'text', text: 'after the break' }] };
        }),
    });
    cleanups.push(() => server.close());
    const { upstream, listings } = await connect(server.url);
    const refreshed = once(listings, 'listed');
    const getsBefore = server.gets.length;
    expect(await call(upstream, 'polled')).toEqual({ content: [{ type: 'text', text: 'after the break' }] });
    await refreshed; // The replayed notification reached the SDK client too.
    const resumed = server.gets.slice(getsBefore).filter((headers) => headers['last-event-id']);
    expect(resumed).toHaveLength(1);
    expect(resumed[0]).toMatchObject({ 'mcp-session-id': expect.any(String), accept: 'text/event-stream' });
    expect(upstream.state).toBe('ready');
  });
});
