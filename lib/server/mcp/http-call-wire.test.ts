// callToolOverHttp against small node servers that write the answers by hand, for what the SDK's
// server does not produce: redirects (followed within the origin only), SSE framing as the spec
// allows it (CRLF, multi-line data, other event types, any chunking), and the cancellation a
// timeout or an abort sends.
import http, { type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { ErrorCode, McpError, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { callToolOverHttp, type HttpCallSession } from './http-call';
import { MAX_ANSWER_CHARS } from './http-post';

interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: { id: string; method: string };
}
type Script = (seen: Seen, res: ServerResponse) => void | Promise<void>;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A node server answering each request with `script`; it records what it received. */
async function scripted(script: Script) {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const body = (text === '' ? {} : JSON.parse(text)) as Seen['body'];
    const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    seen.push(request);
    await script(request, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const answer = (id: string, text = 'ok') =>
  JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
const notification: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info' } };

function session(url: string) {
  const others: JSONRPCMessage[] = [];
  const cancels: { requestId: string; reason: string }[] = [];
  const value: HttpCallSession = {
    url: new URL(url),
    headers: { authorization: 'Bearer t0ken' },
    sessionId: 'session-1',
    protocolVersion: '2025-06-18',
    onOther: (message) => void others.push(message),
    cancel: (requestId, reason) => void cancels.push({ requestId, reason }),
  };
  return { session: value, others, cancels };
}

const call = (s: HttpCallSession, options: { signal?: AbortSignal; timeoutMs?: number } = {}) =>
  callToolOverHttp(
    s,
    { name: 'notes', arguments: { text: 'x' } },
    { signal: options.signal ?? new AbortController().signal, timeoutMs: options.timeoutMs ?? 10_000 },
  );

it.each([307, 308])('a %i to a path of the same origin is followed with the same body and headers', async (status) => {
  const server = await scripted(({ path, body }, res) =>
    path === '/mcp'
      ? void res.writeHead(status, { location: '/real/mcp' }).end()
      : void res.writeHead(200, { 'content-type': 'application/json' }).end(answer(body.id, `at ${path}`)),
  );
  const { session: s } = session(`${server.origin}/mcp`);
  expect(await call(s)).toEqual({ content: [{ type: 'text', text: 'at /real/mcp' }] });
  expect(server.seen.map((r) => r.path)).toEqual(['/mcp', '/real/mcp']);
  expect(server.seen[1]!.body).toEqual(server.seen[0]!.body);
  for (const { headers } of server.seen)
    expect(headers).toMatchObject({
      authorization: 'Bearer t0ken',
      'mcp-session-id': 'session-1',
      'mcp-protocol-version': '2025-06-18',
    });
});

it('a 307 to another origin is not followed: an Error, and the other origin receives nothing', async () => {
  const other = await scripted((_seen, res) => void res.writeHead(500).end());
  const server = await scripted((_seen, res) => void res.writeHead(307, { location: `${other.origin}/mcp` }).end());
  const { session: s } = session(`${server.origin}/mcp`);
  const error = await call(s).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  expect(error).not.toBeInstanceOf(McpError);
  expect((error as Error).message).toMatch(/HTTP 307/);
  expect(other.seen).toHaveLength(0);
});

it('redirects are followed five times at most', async () => {
  const server = await scripted(({ path }, res) => void res.writeHead(307, { location: `${path}x` }).end());
  const { session: s } = session(`${server.origin}/mcp`);
  await expect(call(s)).rejects.toThrow(/HTTP 307/);
  expect(server.seen).toHaveLength(6);
});

const sseAnswer = (body: (id: string) => string, { byteByByte = false } = {}) =>
  scripted(async ({ body: request }, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (!byteByByte) return void res.end(body(request.id));
    // One write per character, each in its own turn of the loop: the reader sees many chunks.
    for (const char of body(request.id)) {
      res.write(char);
      await new Promise((resolve) => setImmediate(resolve));
    }
    res.end();
  });

it('SSE framing as the spec allows: CRLF, comments, a priming event, other event types, multi-line data', async () => {
  const server = await sseAnswer((id) =>
    [
      ': a comment\r\nid: prime-1\r\ndata:\r\n\r\n',
      'event: heartbeat\r\ndata: {"not":"json-rpc"}\r\n\r\n',
      `event: message\r\ndata: ${JSON.stringify(notification)}\r\n\r\n`,
      `id: 2\r\ndata: ${answer(id).replace('"result"', '\r\ndata: "result"')}\r\n\r\n`,
    ].join(''),
  );
  const { session: s, others } = session(`${server.origin}/mcp`);
  expect(await call(s)).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  expect(others).toEqual([notification]);
});

it("an SSE event that is not JSON-RPC is passed over, as the SDK's transport does", async () => {
  const server = await sseAnswer(
    (id) =>
      `data: {"jsonrpc":"2.0","method":"x","extra":1}\n\ndata: not json\n\ndata: ${JSON.stringify(notification)}\n\ndata: ${answer(id)}\n\n`,
  );
  const { session: s, others } = session(`${server.origin}/mcp`);
  expect(await call(s)).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  expect(others).toEqual([notification]);
});

it("a stream with only such events fails with the first one's fault", async () => {
  const server = await sseAnswer(() => `data: {"hello":"world"}\n\ndata: not json\n\n`);
  const { session: s } = session(`${server.origin}/mcp`);
  await expect(call(s)).rejects.toThrow('The server answered with something not JSON-RPC: {"hello":"world"}');
});

it.each(['\n', '\r\n', '\r'])('an SSE answer cut at every byte (line ending %j) gives the result', async (eol) => {
  const server = await sseAnswer(
    (id) =>
      [`event: message${eol}data: ${JSON.stringify(notification)}${eol}${eol}`, `data: ${answer(id)}${eol}${eol}`].join(
        '',
      ),
    { byteByByte: true },
  );
  const { session: s, others } = session(`${server.origin}/mcp`);
  expect(await call(s)).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  expect(others).toEqual([notification]);
});

it('the other messages of a JSON batch go to the session, in order', async () => {
  const request: JSONRPCMessage = { jsonrpc: '2.0', id: 9, method: 'ping' };
  const server = await scripted(
    ({ body }, res) =>
      void res
        .writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
        .end(`[${JSON.stringify(notification)},${answer(body.id)},${JSON.stringify(request)}]`),
  );
  const { session: s, others } = session(`${server.origin}/mcp`);
  expect(await call(s)).toEqual({ content: [{ type: 'text', text: 'ok' }] });
  expect(others).toEqual([notification, request]);
});

it.each([
  ['before the answer starts', false],
  ['while its SSE stream is open', true],
])('a timeout %s fails the call and cancels it by its id', async (_when, streaming) => {
  let closed!: Promise<unknown>;
  const server = await scripted((_seen, res) => {
    closed = once(res, 'close');
    if (streaming) res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
  });
  const { session: s, cancels } = session(`${server.origin}/mcp`);
  const error = await call(s, { timeoutMs: 100 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
  expect(cancels).toEqual([{ requestId: server.seen[0]!.body.id, reason: 'timeout' }]);
  await closed; // The connection is closed, not left waiting.
});

it('an abort fails the call with its reason and cancels it', async () => {
  const controller = new AbortController();
  const server = await scripted(() => void controller.abort(new Error('stopped by the user')));
  const { session: s, cancels } = session(`${server.origin}/mcp`);
  await expect(call(s, { signal: controller.signal })).rejects.toThrow('stopped by the user');
  expect(cancels).toEqual([{ requestId: server.seen[0]!.body.id, reason: 'Error: stopped by the user' }]);
});

it('an already aborted signal sends nothing', async () => {
  const server = await scripted((_seen, res) => void res.writeHead(500).end());
  const { session: s, cancels } = session(`${server.origin}/mcp`);
  await expect(call(s, { signal: AbortSignal.abort(new Error('too late')) })).rejects.toThrow('too late');
  expect(server.seen).toHaveLength(0);
  expect(cancels).toHaveLength(0);
});

describe('a stream the server ends before the answer, after an event id', () => {
  /** The POST's stream ends after two events with ids; a GET is answered by `onGet` (with the call's id). */
  const polled = (onGet: (callId: string, res: ServerResponse) => void) => {
    let callId = '';
    return scripted(async (seen, res) => {
      if (seen.method === 'GET') return onGet(callId, res);
      callId = seen.body.id;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`id: e1\nretry: 0\ndata:\n\nid: e2\ndata: ${JSON.stringify(notification)}\n\n`);
    });
  };

  it('is resumed with GET and Last-Event-ID on the session, and gives the answer', async () => {
    const server = await polled((callId, res) =>
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`id: e3\ndata: ${answer(callId)}\n\n`),
    );
    const { session: s, others } = session(`${server.origin}/mcp`);
    expect(await call(s)).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(others).toEqual([notification]);
    const resumed = server.seen[1]!;
    expect(resumed).toMatchObject({ method: 'GET', path: '/mcp' });
    expect(resumed.headers).toMatchObject({
      'last-event-id': 'e2',
      accept: 'text/event-stream',
      authorization: 'Bearer t0ken',
      'mcp-session-id': 'session-1',
      'mcp-protocol-version': '2025-06-18',
    });
    expect(resumed.headers['content-type']).toBeUndefined();
  });

  it('a resumption the server refuses is an Error naming the status', async () => {
    const server = await polled((_id, res) => void res.writeHead(405).end());
    const { session: s } = session(`${server.origin}/mcp`);
    await expect(call(s)).rejects.toThrow("Resuming the call's stream failed (HTTP 405)");
  });

  it("the wait for the server's retry time ends with the call's timeout", async () => {
    const server = await scripted(
      (_seen, res) =>
        void res.writeHead(200, { 'content-type': 'text/event-stream' }).end('id: e1\nretry: 600000\ndata:\n\n'),
    );
    const { session: s, cancels } = session(`${server.origin}/mcp`);
    await expect(call(s, { timeoutMs: 100 })).rejects.toThrow('Request timed out');
    expect(server.seen.map((r) => r.method)).toEqual(['POST']);
    expect(cancels).toHaveLength(1);
  });
});

it("the session's closing fails the call in flight with its reason; a closed session sends nothing", async () => {
  const closed = new AbortController();
  const server = await scripted(() => void closed.abort(new Error('Connection closed')));
  const { session: s } = session(`${server.origin}/mcp`);
  s.closed = closed.signal;
  await expect(call(s)).rejects.toThrow('Connection closed');
  await expect(call(s)).rejects.toThrow('Connection closed');
  expect(server.seen).toHaveLength(1);
});

describe('an answer larger than what is read into memory fails the call, not the process', () => {
  const huge = 'x'.repeat(MAX_ANSWER_CHARS + 1);

  it('a JSON answer: refused once past the limit, as a refused answer (McpError), not a broken connection', async () => {
    const server = await scripted(
      ({ body }, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end(answer(body.id, huge)),
    );
    const { session: s } = session(`${server.origin}/mcp`);
    const failure = await call(s).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as Error).message).toContain(`larger than ${MAX_ANSWER_CHARS} characters`);
  });

  it('an SSE line without an end, or an event whose data lines add up past the limit', async () => {
    const line = await scripted((_seen, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${huge}`);
    });
    const lines = await scripted((_seen, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const part = `data: ${'y'.repeat(1024 * 1024)}\n`;
      for (let i = 0; i <= MAX_ANSWER_CHARS / (1024 * 1024); i++) res.write(part);
      res.end('\n');
    });
    for (const server of [line, lines]) {
      const { session: s } = session(`${server.origin}/mcp`);
      await expect(call(s)).rejects.toThrow(`larger than ${MAX_ANSWER_CHARS} characters`);
    }
    // A guard 10x above the expected worst case: a long line is read in time linear in its length.
  }, 30_000);
});
