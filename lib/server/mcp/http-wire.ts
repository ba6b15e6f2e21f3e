// A lean HTTP/1.1 client for http-post.ts: one request at a time on a kept-alive connection, the
// request written in one piece, the answer read by a strict parser of the answer's head and its
// framing (Content-Length, chunked, or until the connection closes). node's http client builds a
// ClientRequest, an IncomingMessage and the agent's bookkeeping for each request, with async
// context tracking on each of its callbacks: about 0.5 ms per call on the express lane's path
// (bench/README.md), several times the request's own system calls.
//
// What it does as node's http client does: idle connections are kept per origin (the last freed
// is used first), unreferenced (they do not hold the process open), let go after IDLE_MS or 1 s
// before the keep-alive the server announces; a header with a forbidden character is refused
// before anything is sent; `Host`, `Connection: keep-alive` and (for credentials in the URL) Basic
// `Authorization` are added unless given. What it refuses that node would accept leniently: an
// answer with both Content-Length and Transfer-Encoding, or two Content-Lengths (a smuggling
// pattern), a header line without a colon or folded, a head over MAX_HEAD_BYTES.
import type { IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import tls from 'node:tls';

/** What the caller is told of an answer, in this order: head, data*, then end or fail. */
export interface WireHandler {
  head(status: number, headers: IncomingHttpHeaders): void;
  data(chunk: Buffer): void;
  end(): void;
  fail(error: Error): void;
}

export interface WireCall {
  /** Ends the request at once (its connection is closed); the handler is told `fail(reason)`. */
  abort(reason: Error): void;
  /** Flow control for a body read as it arrives. */
  pause(): void;
  resume(): void;
}

export interface WireRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** An idle connection is let go after this long (as undici's fetch and http-post.ts's agent did). */
export const IDLE_MS = 4_000;
/** node's default limit for an answer's head (--max-http-header-size). */
export const MAX_HEAD_BYTES = 16 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const NOT_ASCII = /[\u0080-\uffff]/;
/** Headers node keeps the first of when repeated; set-cookie is a list; others are joined. */
const SINGLE = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

const parseError = (what: string) => Object.assign(new Error(`Parse Error: ${what}`), { code: 'HPE_INVALID' });
const hangUp = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
const cutOff = () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

const idle = new Map<string, Connection[]>();

/** Sends the request; the handler hears the answer. Throws (nothing sent) for an invalid header. */
export function wireRequest(request: WireRequest, handler: WireHandler): WireCall {
  const { url } = request;
  const head = requestHead(request);
  const key = `${url.protocol}//${url.host}`;
  const connection = takeIdle(key) ?? new Connection(key, connect(url));
  return connection.send(head, request.body, handler);
}

function requestHead({ method, url, headers, body }: WireRequest): string {
  let head = `${method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
  const given = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name))
      throw Object.assign(new TypeError(`Invalid header name: "${name}"`), { code: 'ERR_INVALID_HTTP_TOKEN' });
    if (INVALID_VALUE.test(value))
      throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), {
        code: 'ERR_INVALID_CHAR',
      });
    given.add(name.toLowerCase());
    head += `${name}: ${value}\r\n`;
  }
  if (!given.has('host')) head += `Host: ${url.host}\r\n`;
  if (!given.has('authorization') && (url.username || url.password)) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    head += `Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n`;
  }
  if (!given.has('connection')) head += 'Connection: keep-alive\r\n';
  if (body !== undefined && !given.has('content-length')) head += `Content-Length: ${Buffer.byteLength(body)}\r\n`;
  return `${head}\r\n`;
}

function connect(url: URL): net.Socket {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (url.protocol === 'https:') {
    const port = Number(url.port || 443);
    const socket = tls.connect({
      host,
      port,
      servername: net.isIP(host) ? undefined : host,
      ALPNProtocols: ['http/1.1'],
    });
    return socket.setNoDelay(true);
  }
  return net.connect({ host, port: Number(url.port || 80), noDelay: true });
}

function takeIdle(key: string): Connection | undefined {
  const list = idle.get(key);
  const connection = list?.pop();
  if (list && list.length === 0) idle.delete(key);
  return connection;
}

function dropIdle(connection: Connection) {
  const list = idle.get(connection.key);
  const at = list?.indexOf(connection) ?? -1;
  if (at === -1) return;
  list!.splice(at, 1);
  if (list!.length === 0) idle.delete(connection.key);
}

type Framing = { kind: 'none' } | { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

/** One connection: idle in the pool, or carrying one request and its answer. */
class Connection {
  private handler: WireHandler | undefined;
  /** The request being carried (what a call's handle acts on: its own request, never a later one). */
  private current: object | undefined;
  private pending: Buffer | undefined;
  private framing: Framing | undefined;
  /** Bytes of the chunk being read; 0: its closing CRLF is next; -1: a size line is next; -2: in the trailers. */
  private chunkLeft = -1;
  private keepAliveMs = IDLE_MS;
  private reusable = true;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  /** The answer is read whole (its connection is handed back once the bytes read are looked at). */
  private finished = false;

  constructor(
    readonly key: string,
    private readonly socket: net.Socket,
  ) {
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('end', () => this.closed());
    socket.on('close', () => this.closed());
  }

  send(head: string, body: string | undefined, handler: WireHandler): WireCall {
    clearTimeout(this.idleTimer);
    this.socket.ref();
    this.socket.resume();
    const request = {};
    this.current = request;
    this.handler = handler;
    this.framing = undefined;
    this.pending = undefined;
    this.chunkLeft = -1;
    this.finished = false;
    // One write: the head is ASCII, or written apart in latin1 as node writes headers.
    if (!NOT_ASCII.test(head)) this.socket.write(body === undefined ? head : head + body, 'utf8');
    else {
      this.socket.cork();
      this.socket.write(head, 'latin1');
      if (body !== undefined) this.socket.write(body, 'utf8');
      this.socket.uncork();
    }
    // Bound to this request: once its answer is read, the connection may carry another.
    const mine = () => this.current === request && this.handler !== undefined;
    return {
      abort: (reason) => mine() && this.fail(reason),
      pause: () => mine() && this.socket.pause(),
      resume: () => mine() && this.socket.resume(),
    };
  }

  private read(chunk: Buffer) {
    if (!this.handler) return void this.destroy(); // an idle connection that speaks is not trusted
    let bytes = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    try {
      while (this.handler && !this.finished && bytes.length > 0) {
        const used = this.framing ? this.body(bytes) : this.head(bytes);
        if (used === 0) {
          this.pending = bytes;
          return;
        }
        bytes = bytes.subarray(used);
      }
    } catch (error) {
      return this.fail(error as Error);
    }
    // Bytes after the answer, with no request out: the connection is not used again.
    if (this.handler && this.finished) this.complete(bytes.length === 0);
  }

  /** Parses the head when whole; the bytes used (0: wait for more). */
  private head(bytes: Buffer): number {
    const end = bytes.indexOf('\r\n\r\n', 0, 'latin1');
    if (end === -1) {
      if (bytes.length > MAX_HEAD_BYTES) throw parseError("the answer's head is too large");
      return 0;
    }
    if (end > MAX_HEAD_BYTES) throw parseError("the answer's head is too large");
    const lines = bytes.toString('latin1', 0, end).split('\r\n');
    const status = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: [^\r\n]*)?$/.exec(lines[0]!);
    if (!status) throw parseError('invalid status line');
    const code = Number(status[2]);
    const headers: IncomingHttpHeaders = {};
    const seen = new Set<string>();
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      const colon = line.indexOf(':');
      if (colon <= 0) throw parseError('invalid header line');
      const name = line.slice(0, colon).toLowerCase();
      if (!TOKEN.test(name)) throw parseError('invalid header name');
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length' && seen.has(name)) throw parseError('duplicate Content-Length');
      add(headers, name, value, seen.has(name));
      seen.add(name);
    }
    const used = end + 4;
    if (code < 200) {
      if (code === 101) throw parseError('an upgrade was not asked for');
      return used; // 1xx: an interim answer, the final one follows
    }
    this.framing = framingOf(code, headers);
    const connection = String(headers.connection ?? '').toLowerCase();
    if (
      this.framing.kind === 'close' ||
      connection.split(',').some((token) => token.trim() === 'close') ||
      (status[1] === '0' && !connection.includes('keep-alive'))
    )
      this.reusable = false;
    const announced = /timeout=(\d+)/i.exec(String(headers['keep-alive'] ?? ''));
    if (announced) this.keepAliveMs = Math.min(IDLE_MS, Number(announced[1]) * 1000 - 1000);
    if (this.keepAliveMs <= 0) this.reusable = false;
    this.finished = this.framing.kind === 'none' || (this.framing.kind === 'length' && this.framing.left === 0);
    this.handler!.head(code, headers);
    return used;
  }

  /** Takes body bytes as the framing says; the bytes used. */
  private body(bytes: Buffer): number {
    const framing = this.framing!;
    if (framing.kind === 'close') {
      this.handler!.data(bytes);
      return bytes.length;
    }
    if (framing.kind === 'length') {
      const take = Math.min(framing.left, bytes.length);
      framing.left -= take;
      this.finished = framing.left === 0;
      this.handler!.data(take === bytes.length ? bytes : bytes.subarray(0, take));
      return take;
    }
    return this.chunked(bytes);
  }

  private chunked(bytes: Buffer): number {
    if (this.chunkLeft > 0) {
      const take = Math.min(this.chunkLeft, bytes.length);
      this.chunkLeft -= take;
      this.handler!.data(take === bytes.length ? bytes : bytes.subarray(0, take));
      return take;
    }
    const lineEnd = bytes.indexOf('\r\n', 0, 'latin1');
    if (lineEnd === -1) {
      if (bytes.length > MAX_HEAD_BYTES) throw parseError('chunk line too long');
      return 0;
    }
    const line = bytes.toString('latin1', 0, lineEnd);
    if (this.chunkLeft === 0) {
      // The CRLF that ends a chunk's data.
      if (lineEnd !== 0) throw parseError('invalid chunk end');
      this.chunkLeft = -1;
    } else if (this.chunkLeft === -2) {
      if (line === '') this.finished = true; // the blank line after the trailers
    } else {
      const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;[^\r\n]*)?$/.exec(line);
      if (!size) throw parseError('invalid chunk size');
      const length = parseInt(size[1]!, 16);
      this.chunkLeft = length === 0 ? -2 : length;
    }
    return lineEnd + 2;
  }

  /** The answer is read whole: the connection goes back to the pool (`clean`: nothing followed it), and the handler is told. */
  private complete(clean: boolean) {
    const handler = this.handler!;
    this.handler = undefined;
    this.current = undefined;
    this.framing = undefined;
    if (!clean || !this.reusable || this.socket.destroyed) this.destroy();
    else {
      // A reader that paused it must not leave it deaf: idle, it must hear its server's close.
      this.socket.resume();
      this.socket.unref();
      this.idleTimer = setTimeout(() => this.destroy(), this.keepAliveMs);
      this.idleTimer.unref();
      const list = idle.get(this.key);
      if (list) list.push(this);
      else idle.set(this.key, [this]);
    }
    handler.end();
  }

  private closed() {
    if (!this.handler) return this.destroy();
    // Until close, an answer without a length; otherwise cut off.
    if (this.framing?.kind === 'close') {
      this.framing = undefined;
      const handler = this.handler;
      this.handler = undefined;
      this.current = undefined;
      this.destroy();
      return handler.end();
    }
    this.fail(this.framing ? cutOff() : hangUp());
  }

  private fail(error: Error) {
    const handler = this.handler;
    this.handler = undefined;
    this.current = undefined;
    this.destroy();
    handler?.fail(error);
  }

  private destroy() {
    clearTimeout(this.idleTimer);
    dropIdle(this);
    this.reusable = false;
    this.socket.destroy();
  }
}

function add(headers: IncomingHttpHeaders, name: string, value: string, repeated: boolean) {
  if (name === 'set-cookie') {
    (headers['set-cookie'] ??= []).push(value);
    return;
  }
  if (!repeated) headers[name] = value;
  else if (!SINGLE.has(name)) headers[name] += `, ${value}`;
}

function framingOf(status: number, headers: IncomingHttpHeaders): Framing {
  if (status === 204 || status === 304) return { kind: 'none' };
  const coding = headers['transfer-encoding'];
  const length = headers['content-length'];
  if (coding !== undefined) {
    if (length !== undefined) throw parseError('both Content-Length and Transfer-Encoding');
    const codings = String(coding).toLowerCase().split(',');
    return codings[codings.length - 1]!.trim() === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
  }
  if (length !== undefined) {
    if (!/^\d{1,15}$/.test(String(length))) throw parseError('invalid Content-Length');
    return { kind: 'length', left: Number(length) };
  }
  return { kind: 'close' };
}
