// The fast path's request (fast-routes.ts): node's IncomingMessage seen as a RouteRequest, with
// what Next's adapter would show a route (the URL built from the listen address, X-Forwarded-*
// filled in when no proxy set them, a signal that aborts when the client goes away), but built
// lazily: the URL, the signal and the body stream only when a handler asks for them, and the
// body read straight from node's stream by readBody (no Web stream), as the decision route does.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { DirectBody, RouteRequest } from '../http/route-request';

/** Where the server listens: Next builds a route's `request.url` from this (a loopback address as `localhost`), not from the Host header. */
export interface ListenAddress {
  hostname?: string;
  port: number;
}

export class NodeRouteRequest implements RouteRequest, DirectBody {
  readonly method: string;
  readonly headers: Pick<Headers, 'get'>;
  private href: string | undefined;
  private aborter: AbortController | undefined;
  private closedEarly = false;
  private stream: BodyStream | undefined;
  private consumed = false;
  private preread: Buffer | 'too_large' | undefined;

  constructor(
    private readonly req: IncomingMessage,
    res: ServerResponse,
    private readonly listen: ListenAddress | undefined,
  ) {
    this.method = req.method ?? 'GET';
    this.headers = { get: (name) => this.header(name.toLowerCase()) };
    res.once('close', () => {
      if (res.writableFinished) return;
      this.closedEarly = true;
      this.aborter?.abort(new Error('The client went away'));
    });
  }

  /** As Next's initURL: the configured hostname and port, not the Host header; loopback named `localhost` (NextURL). */
  get url(): string {
    if (this.href !== undefined) return this.href;
    const { req, listen } = this;
    const base = listen
      ? `${this.protocol()}://${formatHostname(listen.hostname || 'localhost')}:${listen.port}`
      : `${this.protocol()}://${req.headers.host ?? 'localhost'}`;
    const url = new URL(req.url ?? '/', base);
    if (LOOPBACK.test(url.hostname)) url.hostname = 'localhost';
    return (this.href = url.href);
  }

  /** True once the client went away before the answer was finished (what `signal` tells, without building it). */
  get gone(): boolean {
    return this.closedEarly;
  }

  get signal(): AbortSignal {
    if (!this.aborter) {
      this.aborter = new AbortController();
      if (this.closedEarly) this.aborter.abort(new Error('The client went away'));
    }
    return this.aborter.signal;
  }

  /** The body as a Web stream, as Next's request has it (for handlers that want one). */
  get body(): ReadableStream<Uint8Array> | null {
    if (!this.stream) {
      // Read whole already (putBack): only readBody gives it back; node's stream is spent.
      if (this.preread !== undefined) throw new TypeError('The request body was read ahead: use readBody');
      this.take();
      this.stream = new BodyStream(this.req);
    }
    return this.stream.stream;
  }

  /**
   * Gives back a body read whole by an earlier reader that handed the request on (the MCP express
   * lane): the next `readBody` returns it as if it were read now (`too_large` again for a lower limit).
   */
  putBack(body: Buffer | 'too_large'): void {
    this.preread = body;
    this.consumed = false;
  }

  readBody(maxBytes: number): Promise<Buffer | 'too_large'> {
    try {
      this.take();
    } catch (error) {
      return Promise.reject(error);
    }
    const { preread } = this;
    if (preread !== undefined) {
      this.preread = undefined;
      return Promise.resolve(preread !== 'too_large' && preread.length > maxBytes ? 'too_large' : preread);
    }
    const { req } = this;
    // Framed by Content-Length (node refuses a message that also says Transfer-Encoding, or
    // two different lengths); NaN when chunked or absent: then the stream's 'end' says it is whole.
    const declared = req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : NaN;
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const stop = () => {
        req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          stop();
          req.resume(); // the rest is read and dropped, so the connection can carry the next request
          return void resolve('too_large');
        }
        chunks.push(chunk);
        // The declared length is all there is (node's parser frames the body by it and never gives
        // more): the body is whole with this chunk, not a tick later when the stream emits 'end'.
        if (size === declared) onEnd();
      };
      const onEnd = () => {
        stop();
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      };
      const onError = (error: Error) => {
        stop();
        reject(error);
      };
      const onClose = () => {
        stop();
        reject(new Error('The request was aborted'));
      };
      req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    });
  }

  /** Whatever the handler left unread (a 401 before the body, a 413 part way) is discarded, as Next does. */
  discard(): void {
    this.stream?.discard();
    if (!this.req.complete) this.req.resume();
  }

  private take(): void {
    if (this.consumed) throw new TypeError('The request body has already been read');
    this.consumed = true;
  }

  private protocol(): 'http' | 'https' {
    const forwardedProto = this.req.headers['x-forwarded-proto'];
    return Boolean((this.req.socket as TLSSocket).encrypted) ||
      (typeof forwardedProto === 'string' && forwardedProto.includes('https'))
      ? 'https'
      : 'http';
  }

  private header(name: string): string | null {
    const value = this.req.headers[name];
    if (value !== undefined) return Array.isArray(value) ? value.join(', ') : value;
    return this.forwardedDefault(name) ?? null;
  }

  // Next fills these in when no proxy did (base-server.ts), and the origin check reads them.
  private forwardedDefault(name: string): string | undefined {
    const { req, listen } = this;
    const forwardedProto = req.headers['x-forwarded-proto'];
    const isHttps =
      typeof forwardedProto === 'string' ? forwardedProto === 'https' : Boolean((req.socket as TLSSocket).encrypted);
    switch (name) {
      case 'x-forwarded-host':
        return req.headers.host ?? listen?.hostname ?? 'localhost';
      case 'x-forwarded-port':
        return listen ? String(listen.port) : isHttps ? '443' : '80';
      case 'x-forwarded-proto':
        return isHttps ? 'https' : 'http';
      case 'x-forwarded-for':
        return req.socket.remoteAddress;
      default:
        return undefined;
    }
  }
}

const LOOPBACK = /^(?:127(?:\.(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)){3}|\[::1\]|localhost)$/;

function formatHostname(hostname: string): string {
  return hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
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
