// The custom server's fast path (scripts/server.mjs): `POST /api/chat/relay/:relayId`, a human's
// decision, is answered without Next's router, which costs 1.5-2 ms per request on a small VM
// before the route's code runs. The same handler as the Next route runs (routes/decide-relay.ts:
// origin check, auth, body limit, zod, error mapping); this module only adapts Node's request to
// a Web Request the way Next does and writes the Response back. Anything it does not recognise
// exactly (another method or path, a trailing slash, an id Next would normalise) returns false,
// and Next serves it. Invariant: once it returns true the request is answered, errors included.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { toResponse } from './errors';
import { decideRelay, type RelayParams } from './routes/decide-relay';

export type DecideHandler = (request: Request, context: { params: Promise<RelayParams> }) => Promise<Response>;

/** Where the server listens: Next builds a route's `request.url` from this (a loopback address as `localhost`), not from the Host header. */
export interface ListenAddress {
  hostname?: string;
  port: number;
}

/** Answers the request and returns true, or returns false without touching it. Never throws. */
export type FastRoutes = (req: IncomingMessage, res: ServerResponse, listen?: ListenAddress) => boolean;

const KEY = Symbol.for('gatehouse.fastRoutes');
const PREFIX = '/api/chat/relay/';
// RFC 3986 path characters. Anything else (or none) is left to Next, whose URL parsing may
// encode or normalise it: the fast path must never see a different id than the route would.
const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/** The relay id of `POST /api/chat/relay/<id>[?query]`, decoded as Next decodes params; else undefined. */
export function matchDecision(method: string | undefined, url: string | undefined): string | undefined {
  if (method !== 'POST' || !url?.startsWith(PREFIX)) return undefined;
  const query = url.indexOf('?', PREFIX.length);
  const segment = url.slice(PREFIX.length, query === -1 ? undefined : query);
  if (!SEGMENT.test(segment)) return undefined;
  let id = segment;
  if (segment.includes('%')) {
    try {
      id = decodeURIComponent(segment);
    } catch {
      return undefined; // Next answers 400 for a malformed escape
    }
  }
  // Dot segments (also as %2e) are resolved away by URL parsing; an encoded slash is Next's call.
  if (id === '.' || id === '..' || segment === '.' || segment === '..' || /[/\\]/.test(id)) return undefined;
  return id;
}

export function createFastRoutes(decide: DecideHandler): FastRoutes {
  return (req, res, listen) => {
    let relayId: string | undefined;
    try {
      relayId = matchDecision(req.method, req.url);
    } catch {
      return false;
    }
    if (relayId === undefined) return false;
    void serve(req, res, listen, (request) => decide(request, { params: Promise.resolve({ relayId }) })).catch(() => res.destroy());
    return true;
  };
}

/** Installs the fast path for scripts/server.mjs (called once the runtime is up: instrumentation.ts). */
export function installFastRoutes(): void {
  (globalThis as { [KEY]?: FastRoutes })[KEY] = createFastRoutes(decideRelay);
}

async function serve(req: IncomingMessage, res: ServerResponse, listen: ListenAddress | undefined, run: (request: Request) => Promise<Response>): Promise<void> {
  const body = new BodyStream(req);
  try {
    const response = await run(toRequest(req, res, listen, body.stream));
    await send(res, response);
  } catch (error) {
    console.error('[gatehouse] fast route failed:', (error as Error)?.message ?? error);
    if (res.headersSent) res.destroy();
    else await send(res, toResponse(error)).catch(() => res.destroy());
  } finally {
    // Whatever the handler left unread (a 401 before the body, a 413 part way) is discarded, so
    // the connection can carry the next request, as Next does.
    body.discard();
  }
}

// As Next's NodeNextRequest.stream(), plus backpressure, and a cancel that drains instead of
// enqueueing into a cancelled stream.
class BodyStream {
  readonly stream: ReadableStream<Uint8Array>;
  private done = false;

  constructor(private readonly req: IncomingMessage) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        req.on('data', (chunk: Buffer) => {
          if (this.done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.on('end', () => {
          if (!this.done) controller.close();
          this.done = true;
        });
        req.on('error', (error) => {
          if (!this.done) controller.error(error);
          this.done = true;
        });
        req.on('close', () => {
          if (!this.done) controller.error(new Error('The request was aborted'));
          this.done = true;
        });
      },
      pull: () => {
        req.resume();
      },
      cancel: () => this.discard(),
    });
  }

  discard(): void {
    this.done = true;
    if (!this.req.complete) this.req.resume();
  }
}

function toRequest(req: IncomingMessage, res: ServerResponse, listen: ListenAddress | undefined, body: ReadableStream<Uint8Array>): Request {
  const encrypted = Boolean((req.socket as TLSSocket).encrypted);
  const forwardedProto = req.headers['x-forwarded-proto'];
  const protocol = encrypted || (typeof forwardedProto === 'string' && forwardedProto.includes('https')) ? 'https' : 'http';
  // Next's initURL: the configured hostname and port, not the Host header.
  const base = listen ? `${protocol}://${formatHostname(listen.hostname || 'localhost')}:${listen.port}` : `${protocol}://${req.headers.host ?? 'localhost'}`;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.append(name, value);
  }
  // Next fills these in when no proxy did (base-server.ts), and the origin check reads them.
  const isHttps = typeof forwardedProto === 'string' ? forwardedProto === 'https' : encrypted;
  if (!headers.has('x-forwarded-host')) headers.set('x-forwarded-host', req.headers.host ?? listen?.hostname ?? 'localhost');
  if (!headers.has('x-forwarded-port')) headers.set('x-forwarded-port', listen ? String(listen.port) : isHttps ? '443' : '80');
  if (!headers.has('x-forwarded-proto')) headers.set('x-forwarded-proto', isHttps ? 'https' : 'http');
  if (!headers.has('x-forwarded-for') && req.socket.remoteAddress) headers.set('x-forwarded-for', req.socket.remoteAddress);
  // As Next: the signal aborts when the client goes away before the response is finished.
  const aborter = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort(new Error('The client went away'));
  });
  const url = new URL(req.url ?? '/', base);
  // NextRequest (NextURL) names every loopback host `localhost`.
  if (LOOPBACK.test(url.hostname)) url.hostname = 'localhost';
  return new Request(url, { method: req.method, headers, body, duplex: 'half', signal: aborter.signal } as RequestInit);
}

const LOOPBACK = /^(?:127(?:\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)){3}|\[::1\]|localhost)$/;

function formatHostname(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
}

// Next's sendResponse: the status, every header but the framing ones (Node frames the body
// itself), Set-Cookie one by one. The body is small JSON here, so it is sent in one write with a
// Content-Length rather than chunked.
const FRAMING_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

async function send(res: ServerResponse, response: Response): Promise<void> {
  const chunks: Uint8Array[] = [];
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) chunks.push(read.value);
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  response.headers.forEach((value, name) => {
    if (FRAMING_HEADERS.has(name) || name === 'set-cookie') return;
    res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
  res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}
