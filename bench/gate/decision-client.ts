// The decision POST of a probe, over a kept-alive HTTP/1.1 connection written by hand, so that its
// start is stamped when the request's bytes are handed to the socket. With fetch (undici) the stamp
// came before the client library built and queued the request: 0.5-1 ms of the client's own work on
// a 2-core VM was counted as the gate's (README, Performance). The connection is opened before the
// stamp and reused across probes, as a browser reuses its connection to the app.
import net from 'node:net';
import { wallMs } from './clock';
import { STEP_TIMEOUT_MS } from './config';

export interface Answered {
  status: number;
  body: string;
  /** Client CLOCK_REALTIME (ms) just before the request was written to the socket. */
  sentAt: number;
  /** When the whole response had been read. */
  answeredAt: number;
}

interface Pending {
  resolve(answer: { status: number; body: string }): void;
  reject(error: Error): void;
}

export class DecisionClient {
  private socket: net.Socket | undefined;
  private buffer = Buffer.alloc(0);
  private pending: Pending | undefined;

  constructor(private readonly base: string) {}

  /** POSTs `body` to `path`; one request at a time. */
  async post(
    path: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs = STEP_TIMEOUT_MS,
  ): Promise<Answered> {
    if (this.pending) throw new Error('DecisionClient: one request at a time');
    const socket = await this.connected();
    const url = new URL(this.base);
    const payload = Buffer.from(body);
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: ${url.host}`,
      'Connection: keep-alive',
      `Content-Length: ${payload.length}`,
    ]
      .concat(Object.entries(headers).map(([name, value]) => `${name}: ${value}`))
      .join('\r\n');
    const request = Buffer.concat([Buffer.from(`${head}\r\n\r\n`), payload]);
    const answer = new Promise<{ status: number; body: string }>(
      (resolve, reject) => (this.pending = { resolve, reject }),
    );
    const timer = setTimeout(() => this.fail(new Error(`POST ${path}: no answer within ${timeoutMs} ms`)), timeoutMs);
    const sentAt = wallMs();
    socket.write(request);
    try {
      const { status, body: text } = await answer;
      return { status, body: text, sentAt, answeredAt: wallMs() };
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private connected(): Promise<net.Socket> {
    if (this.socket && !this.socket.destroyed) return Promise.resolve(this.socket);
    const url = new URL(this.base);
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true }, () => {
        socket.off('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
      socket.on('data', (chunk: Buffer) => this.receive(chunk));
      socket.on('close', () => {
        if (this.socket !== socket) return; // closed by us, or an earlier connection
        this.socket = undefined;
        this.fail(new Error('The connection closed before the answer'));
      });
      socket.on('error', () => undefined);
      this.buffer = Buffer.alloc(0);
      this.socket = socket;
    });
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending) {
      this.close();
      pending.reject(error);
    }
  }

  /** Parses one response (Content-Length or chunked) once it is complete. */
  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf('\r\n\r\n');
    if (end < 0 || !this.pending) return;
    const lines = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(lines[0] ?? '')?.[1]);
    const header = (name: string) =>
      lines
        .find((line) => line.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim();
    const rest = this.buffer.subarray(end + 4);
    let body: Buffer | undefined;
    let used = 0;
    const length = header('content-length');
    if (length !== undefined) {
      if (rest.length < Number(length)) return;
      body = rest.subarray(0, Number(length));
      used = Number(length);
    } else if (header('transfer-encoding')?.toLowerCase() === 'chunked') {
      const parts: Buffer[] = [];
      let at = 0;
      for (;;) {
        const lineEnd = rest.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(rest.subarray(at, lineEnd).toString('latin1'), 16);
        if (rest.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          used = lineEnd + 4;
          break;
        }
        parts.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      body = Buffer.alloc(0);
    }
    this.buffer = Buffer.from(rest.subarray(used));
    const pending = this.pending;
    this.pending = undefined;
    if (header('connection')?.toLowerCase() === 'close') this.close();
    pending.resolve({ status, body: body.toString('utf8') });
  }
}
