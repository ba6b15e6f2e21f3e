// wireRequest against local servers that write raw bytes, so each test says exactly what the wire
// carries: the request as sent, the answer's framing however it is split, the strict refusals, the
// reuse of kept-alive connections, the failures in node's words, flow control and TLS.
import { once } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import tls from 'node:tls';
import { afterEach, expect, it } from 'vitest';
import { LOCALHOST_TLS } from './tls-localhost.test-support';
import { MAX_HEAD_BYTES, wireRequest, type WireCall, type WireHandler, type WireRequest } from './http-wire';

type Answer = (socket: Socket, request: string, n: number) => void;

const closers: (() => Promise<void>)[] = [];
const calls: WireCall[] = [];
afterEach(async () => {
  // A call a failing test left hanging is ended (a finished call's abort does nothing).
  for (const call of calls.splice(0)) call.abort(new Error('test over'));
  for (const close of closers.splice(0)) await close();
});

/** A server that hands each whole request (head and Content-Length body) to `answer`; n counts from 1. */
async function serve(answer: Answer, options: { tls?: tls.TlsOptions; allowHalfOpen?: boolean } = {}) {
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const onSocket = (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (let end; (end = buffered.indexOf('\r\n\r\n')) !== -1;) {
        const length = Number(/content-length: *(\d+)/i.exec(buffered.toString('latin1', 0, end))?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        requests.push(buffered.toString('utf8', 0, end + 4 + length));
        buffered = buffered.subarray(end + 4 + length);
        answer(socket, requests.at(-1)!, requests.length);
      }
    });
  };
  const server = options.tls
    ? tls.createServer(options.tls, onSocket)
    : net.createServer({ allowHalfOpen: options.allowHalfOpen ?? false }, onSocket);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: (rest = '/mcp') => new URL(`${options.tls ? 'https://localhost' : 'http://127.0.0.1'}:${port}${rest}`),
    requests,
    connections: () => connections,
    sockets,
  };
}

type Init = Partial<Omit<WireRequest, 'url'>>;
interface Heard {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the handler heard, in order: `head 200`, `data ...`, `end` or `fail <message>`. */
  events: string[];
  error?: Error;
}

/** One request; `done` settles with what the handler heard, in order (never rejects). */
function request(url: URL, init: Init = {}, onData?: (chunk: Buffer, call: WireCall) => void) {
  const heard: Heard = { headers: {}, body: '', events: [] };
  let call!: WireCall;
  let handler!: WireHandler;
  const done = new Promise<Heard>((resolve) => {
    call = wireRequest(
      { method: 'POST', headers: {}, ...init, url },
      (handler = {
        head: (status, headers) => void (heard.events.push(`head ${status}`), (heard.headers = headers)),
        data: (chunk) => {
          heard.body += chunk.toString('latin1');
          heard.events.push(`data ${chunk.toString('latin1')}`);
          onData?.(chunk, call);
        },
        end: () => resolve((heard.events.push('end'), heard)),
        fail: (error) => resolve((heard.events.push(`fail ${error.message}`), Object.assign(heard, { error }))),
      }),
    );
  });
  calls.push(call);
  return { call, done, heard, handler };
}

/** A request expected to succeed. */
async function fetched(url: URL, init?: Init) {
  const heard = await request(url, init).done;
  expect(heard.error).toBeUndefined();
  return heard;
}

/** Writes the pieces one by one, each after the client (same event loop) could read the one before. */
async function dribble(socket: Socket, pieces: string[]) {
  // Each write in a 'check' phase, so the loop's next 'poll' phase reads it before the next write.
  for (const piece of pieces) {
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => socket.write(piece, 'latin1', resolve));
  }
}

const ignore: WireHandler = { head() {}, data() {}, end() {}, fail() {} };
const ok = (body = '', head = '') =>
  `HTTP/1.1 200 OK\r\n${head}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const answerOk: Answer = (socket, _request, n) => socket.write(ok(`answer ${n}`));
/** The first request is answered with `first` (bytes, or a function that writes them), the others with 'next'. */
const thenNext =
  (first: string | ((socket: Socket) => unknown)): Answer =>
  (socket, _request, n) =>
    void (n > 1 ? socket.write(ok('next')) : typeof first === 'string' ? socket.write(first) : first(socket));

it('a POST carries its path and query, the headers given, Host, keep-alive, the utf-8 length and the body', async () => {
  const server = await serve(answerOk);
  await fetched(server.url('/mcp/x?a=1&b=é'), { headers: { 'X-Team': 'blue', accept: 'a/b' }, body: '{"é":1}' });
  const host = server.url().host;
  expect(server.requests).toEqual([
    `POST /mcp/x?a=1&b=%C3%A9 HTTP/1.1\r\nX-Team: blue\r\naccept: a/b\r\nHost: ${host}\r\nConnection: keep-alive\r\nContent-Length: 8\r\n\r\n{"é":1}`,
  ]);
});

it('a GET carries no Content-Length and no body', async () => {
  const server = await serve(answerOk);
  await fetched(server.url('/'), { method: 'GET', headers: { 'last-event-id': 'e2' } });
  expect(server.requests).toEqual([
    `GET / HTTP/1.1\r\nlast-event-id: e2\r\nHost: ${server.url().host}\r\nConnection: keep-alive\r\n\r\n`,
  ]);
});

it('credentials in the URL become Basic Authorization, unless an authorization header is given', async () => {
  const server = await serve(answerOk);
  const url = server.url();
  Object.assign(url, { username: 'us%40er', password: 'p%C3%A4ss' });
  await fetched(url);
  await fetched(url, { headers: { Authorization: 'Bearer t0ken' } });
  const authorizations = server.requests.map((text) => text.match(/^authorization: .*$/gim));
  expect(authorizations).toEqual([
    [`Authorization: Basic ${Buffer.from('us@er:päss').toString('base64')}`],
    ['Authorization: Bearer t0ken'],
  ]);
});

it.each([
  ['a value with CR/LF', { 'x-a': 'a\r\nX-Injected: 1' }, 'ERR_INVALID_CHAR'],
  ['a value with a character above latin1', { 'x-a': '€' }, 'ERR_INVALID_CHAR'],
  ['a name with a space', { 'bad name': 'x' }, 'ERR_INVALID_HTTP_TOKEN'],
  ['an empty name', { '': 'x' }, 'ERR_INVALID_HTTP_TOKEN'],
])('a header with %s throws at once, and no connection is made', async (_what, headers, code) => {
  const server = await serve(answerOk);
  expect(() => wireRequest({ method: 'POST', url: server.url(), headers, body: '{}' }, ignore)).toThrow(
    expect.objectContaining({ code }),
  );
  // A valid request after it is the first connection and the only request the server sees.
  await fetched(server.url());
  expect([server.connections(), server.requests.length]).toEqual([1, 1]);
});

it('a Content-Length body in tiny writes, the head split mid-line, is delivered as it arrives', async () => {
  const server = await serve(
    (socket) =>
      void dribble(socket, ['HTTP/1.1 200 O', 'K\r\nContent-Le', 'ngth: 5\r', '\nX-A: 1\r\n\r', '\nhe', 'l', 'lo']),
  );
  const heard = await fetched(server.url());
  expect(heard.events).toEqual(['head 200', 'data he', 'data l', 'data lo', 'end']);
  expect(heard.headers).toEqual({ 'content-length': '5', 'x-a': '1' });
});

it('a chunked body with extensions and trailers, split at every awkward place, is read exactly', async () => {
  const head = 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n';
  // Each '|' ends a write.
  const pieces = '1|0;name="v" ; x\r|\n0123456789|abcdef|\r|\n3 \r\nxyz|\r\n0\r\nX-Trailer: t\r|\n\r|\n'.split('|');
  const server = await serve(thenNext((socket) => dribble(socket, [head, ...pieces])));
  const heard = await fetched(server.url());
  expect(heard.events).toEqual(['head 200', 'data 0123456789', 'data abcdef', 'data xyz', 'end']);
  // The answer's last byte was read: the next answer on the same connection is read from its start.
  expect((await fetched(server.url())).body).toBe('next');
  expect(server.connections()).toBe(1);
});

it('a body without a length is read until the server closes, then ends; the connection is not reused', async () => {
  const server = await serve(
    thenNext((socket) => dribble(socket, ['HTTP/1.1 200 OK\r\n\r\nab', 'cd']).then(() => socket.end())),
  );
  expect((await fetched(server.url())).events).toEqual(['head 200', 'data ab', 'data cd', 'end']);
  expect((await fetched(server.url())).body).toBe('next');
  expect(server.connections()).toBe(2);
});

it('a 204 has no body: it ends at its head, and the connection carries the next request', async () => {
  const server = await serve(thenNext('HTTP/1.1 204 No Content\r\n\r\n'));
  expect((await fetched(server.url())).events).toEqual(['head 204', 'end']);
  expect((await fetched(server.url())).body).toBe('next');
  expect(server.connections()).toBe(1);
});

it('interim answers (100, 103) are skipped: the handler hears the final answer only', async () => {
  const interim = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n';
  const server = await serve((socket) => void dribble(socket, [interim, ok('final')]));
  const heard = await fetched(server.url());
  expect(heard.events).toEqual(['head 200', 'data final', 'end']);
  expect(heard.headers).toEqual({ 'content-length': '5' });
});

it('header names are lower-cased; repeats are joined with ", ", set-cookie is a list, content-type keeps the first', async () => {
  const head =
    'X-Tag: a\r\nx-tag:  b \r\nSet-Cookie: s=1\r\nset-cookie: t=2\r\nContent-Type: text/plain\r\nContent-Type: a/b\r\n';
  const server = await serve((socket) => socket.write(ok('', head)));
  expect((await fetched(server.url())).headers).toEqual({
    'x-tag': 'a, b',
    'set-cookie': ['s=1', 't=2'],
    'content-type': 'text/plain',
    'content-length': '0',
  });
});

const HEAD = 'HTTP/1.1 200 OK\r\n';
const TE = 'Transfer-Encoding: chunked\r\n';
it.each([
  [
    'Content-Length and Transfer-Encoding',
    'both Content-Length and Transfer-Encoding',
    `${HEAD}Content-Length: 2\r\n${TE}\r\n`,
  ],
  ['two Content-Lengths', 'duplicate Content-Length', `${HEAD}Content-Length: 2\r\nContent-Length: 2\r\n\r\nab`],
  ['an HTTP/2 status line', 'invalid status line', 'HTTP/2 200 OK\r\nContent-Length: 0\r\n\r\n'],
  ['a line without a colon', 'invalid header line', `${HEAD}Content-Length 0\r\n\r\n`],
  ['a folded line', 'invalid header line', `${HEAD}X-A: 1\r\n  folded\r\nContent-Length: 0\r\n\r\n`],
  ['a head over MAX_HEAD_BYTES', "the answer's head is too large", `${HEAD}X-A: ${'a'.repeat(MAX_HEAD_BYTES)}`],
  ['an invalid chunk size', 'invalid chunk size', `${HEAD}${TE}\r\nzz\r\n`],
  ['a 101', 'an upgrade was not asked for', 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n'],
])('an answer with %s fails (Parse Error: %s), and its connection is not used again', async (_what, message, bad) => {
  const server = await serve(thenNext(bad));
  const { error } = await request(server.url()).done;
  expect(error).toBeInstanceOf(Error);
  expect(error).toMatchObject({ message: `Parse Error: ${message}`, code: 'HPE_INVALID' });
  expect((await fetched(server.url())).body).toBe('next');
  expect(server.connections()).toBe(2);
});

it('consecutive requests to one origin share one connection', async () => {
  const server = await serve(answerOk);
  for (let i = 1; i <= 3; i++) expect((await fetched(server.url())).body).toBe(`answer ${i}`);
  expect([server.connections(), server.requests.length]).toEqual([1, 3]);
});

it.each([
  ['Connection: close', 2, `${HEAD}Connection: keep-alive, close\r\n`],
  ['HTTP/1.0 without keep-alive', 2, 'HTTP/1.0 200 OK\r\n'],
  ['Keep-Alive: timeout=1 (gone before it could be used)', 2, `${HEAD}Keep-Alive: timeout=1\r\n`],
  ['HTTP/1.0 with Connection: keep-alive', 1, 'HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\n'],
  ['Keep-Alive: timeout=5', 1, `${HEAD}Keep-Alive: timeout=5\r\n`],
])('an answer with %s: the next request takes connection number %i', async (_what, connections, head) => {
  // The server itself closes nothing: what is counted is the client's choice.
  const server = await serve(thenNext(`${head}Content-Length: 0\r\n\r\n`));
  await fetched(server.url());
  expect((await fetched(server.url())).body).toBe('next');
  expect(server.connections()).toBe(connections);
});

it('bytes after a complete answer mean its connection is not used again', async () => {
  const server = await serve(thenNext(ok('first') + ok('stray')));
  expect((await fetched(server.url())).body).toBe('first');
  expect((await fetched(server.url())).body).toBe('next');
  expect(server.connections()).toBe(2);
});

it('an idle connection the server closes is not used again: the next request opens a new one', async () => {
  // Half-open server: its 'end' comes once the client has seen the close and closed its own side.
  const server = await serve((socket) => socket.end(ok('bye')), { allowHalfOpen: true });
  await fetched(server.url());
  await once([...server.sockets][0]!, 'end');
  expect((await fetched(server.url())).body).toBe('bye');
  expect(server.connections()).toBe(2);
});

it('an idle connection does not hold the process open (its socket is unreferenced)', async () => {
  const sockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap').length;
  let during = 0;
  const server = await serve((socket) => socket.write(ok('x')));
  const { done } = request(server.url(), {}, () => (during = sockets()));
  await done;
  // The server's side stays open; the client's, idle now, no longer counts.
  expect(sockets()).toBe(during - 1);
});

it("a server that closes before any byte of the answer: 'socket hang up' (ECONNRESET)", async () => {
  const server = await serve((socket) => socket.end());
  const { events, error } = await request(server.url()).done;
  expect(events).toEqual(['fail socket hang up']);
  expect(error).toMatchObject({ code: 'ECONNRESET' });
});

it("a server that closes in the middle of the body: 'aborted' (ECONNRESET)", async () => {
  const server = await serve((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab'));
  const { events, error } = await request(server.url()).done;
  expect(events).toEqual(['head 200', 'data ab', 'fail aborted']);
  expect(error).toMatchObject({ code: 'ECONNRESET' });
});

it('a refused connection fails with ECONNREFUSED', async () => {
  const server = await serve(answerOk);
  await closers.pop()!();
  expect((await request(server.url()).done).error).toMatchObject({ code: 'ECONNREFUSED' });
});

it('abort() before the answer fails the call with its reason, and the server sees the connection closed', async () => {
  const reason = new Error('stop');
  let closed!: Promise<unknown>;
  const server = await serve((socket) => {
    closed = once(socket, 'close');
    pending.call.abort(reason);
  });
  const pending = request(server.url());
  const heard = await pending.done;
  expect(heard.error).toBe(reason);
  expect(heard.events).toEqual(['fail stop']);
  await closed;
  expect(server.sockets.size).toBe(0);
});

it("abort() on a finished call's handle does not touch the next request on its connection", async () => {
  const server = await serve(answerOk);
  const first = request(server.url());
  await first.done;
  const second = request(server.url());
  first.call.abort(new Error('late'));
  expect((await second.done).events).toEqual(['head 200', 'data answer 2', 'end']);
  expect(server.connections()).toBe(1);
});

it("abort() on a finished call's handle does not touch a next request that shares its handler object", async () => {
  const server = await serve(answerOk);
  const first = request(server.url());
  await first.done;
  calls.push(wireRequest({ method: 'POST', headers: {}, url: server.url() }, first.handler));
  first.call.abort(new Error('late'));
  // The handler's second answer is recorded after its first.
  await expect.poll(() => first.heard.events.slice(3)).toEqual(['head 200', 'data answer 2', 'end']);
});

it('pause() holds the body back until resume()', async () => {
  let more!: () => void;
  const server = await serve((socket, _request, n) => {
    if (n === 2) return void socket.write(ok('barrier'));
    socket.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nab');
    more = () => socket.write('cd');
  });
  let pausedNow!: () => void;
  const paused = new Promise<void>((resolve) => (pausedNow = resolve));
  const first = request(server.url(), {}, (chunk, call) => {
    if (chunk.toString() !== 'ab') return;
    call.pause();
    pausedNow();
  });
  await paused;
  more();
  // A whole exchange on a second connection: meanwhile the paused connection's bytes have arrived.
  expect((await fetched(server.url())).body).toBe('barrier');
  expect(first.heard.events).toEqual(['head 200', 'data ab']);
  first.call.resume();
  expect((await first.done).events).toEqual(['head 200', 'data ab', 'data cd', 'end']);
});

it('a call paused when its answer ends does not leave its connection paused for the next request', async () => {
  const server = await serve(answerOk);
  await request(server.url(), {}, (_chunk, call) => call.pause()).done;
  const next = request(server.url());
  await expect.poll(() => next.heard.events).toEqual(['head 200', 'data answer 2', 'end']);
  expect(server.connections()).toBe(1);
});

const certificate = LOCALHOST_TLS;

it('https: a TLS server answers when NODE_TLS_REJECT_UNAUTHORIZED=0', async () => {
  const server = await serve(answerOk, { tls: certificate });
  const before = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
  try {
    expect((await fetched(server.url())).body).toBe('answer 1');
    expect((await fetched(server.url())).body).toBe('answer 2');
    expect(server.connections()).toBe(1);
  } finally {
    if (before === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = before;
  }
});

it('https: a self-signed certificate is refused by default', async () => {
  const server = await serve(answerOk, { tls: certificate });
  const { events, error } = await request(server.url()).done;
  expect(error).toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
  expect(events).toEqual([`fail ${error!.message}`]);
  expect(server.requests).toEqual([]);
});
