import http from 'node:http';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { installLingeringClose } from './lingering-close.mjs';

// A server that answers 413 at once, before reading the body, and closes the connection: what the
// body cap does (lib/server/http/body.ts) for a client that sent `Connection: close`.
const servers: http.Server[] = [];
async function earlyAnswerServer(linger?: { lingerMs?: number; maxBytes?: number }): Promise<number> {
  const server = http.createServer((req, res) => {
    tracker?.track(req);
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
    res.end('{"error":{"code":"payload_too_large"}}');
  });
  const tracker = linger ? installLingeringClose(server, linger) : undefined;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as net.AddressInfo).port;
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

interface Exchange {
  response: string;
  error?: string;
  /** When the server closed its side, in ms after the headers were sent. */
  closedAfterMs?: number;
}

/**
 * Sends a request's headers, waits for the response, and only then sends `sendAfter` bytes of the
 * body in 64 KiB writes: a client that was slower than the server's answer.
 */
function exchange(port: number, declared: number | 'chunked', sendAfter: number): Promise<Exchange> {
  return new Promise((resolve) => {
    // Half-open: a FIN from the server does not end the client's own sending.
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const started = Date.now();
    let response = '';
    let error: string | undefined;
    let sending = false;
    let closedAfterMs: number | undefined;
    const sendRest = async () => {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      for (let sent = 0; sent < sendAfter && !socket.destroyed; sent += chunk.length) {
        const data = chunk.subarray(0, Math.min(chunk.length, sendAfter - sent));
        const framed =
          declared === 'chunked'
            ? Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')])
            : data;
        if (!socket.write(framed)) await new Promise((r) => socket.once('drain', r));
        await new Promise((r) => setTimeout(r, 1));
      }
    };
    socket.on('data', (data) => {
      response += data.toString('latin1');
      if (!sending && response.includes('\r\n\r\n')) {
        sending = true;
        void sendRest().then(() => {
          sent = true;
          if (closedAfterMs !== undefined) socket.end();
        });
      }
    });
    // The client ends its side once the server has closed its own and the body is sent.
    let sent = false;
    socket.on('end', () => {
      closedAfterMs ??= Date.now() - started;
      if (sent) socket.end();
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => resolve({ response, error, closedAfterMs }));
    socket.write(
      `POST /api/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${declared === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${declared}`}\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe('lingering close', () => {
  it('without it, a client still sending the body after an early answer gets a reset', async () => {
    const port = await earlyAnswerServer();
    const { response, error } = await exchange(port, 4_000_000, 4_000_000);
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(error).toMatch(/EPIPE|ECONNRESET/);
  });

  it('with it, the client sends its whole body without an error, and the connection then closes', async () => {
    const port = await earlyAnswerServer({});
    const { response, error, closedAfterMs } = await exchange(port, 4_000_000, 4_000_000);
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(response).toContain('payload_too_large');
    expect(error).toBeUndefined();
    expect(closedAfterMs).toBeDefined();
  });

  it('reads at most maxBytes: a client that keeps sending a long body cannot hold the socket', async () => {
    const port = await earlyAnswerServer({ maxBytes: 256 * 1024 });
    // Chunks of a body that does not end.
    const { response, error } = await exchange(port, 'chunked', 8_000_000);
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(error).toMatch(/EPIPE|ECONNRESET/);
  });

  it('does not wait for a body declared longer than maxBytes', async () => {
    const port = await earlyAnswerServer({ maxBytes: 256 * 1024 });
    const { response, error } = await exchange(port, 1_000_000_000, 8_000_000);
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(error).toMatch(/EPIPE|ECONNRESET/);
  });

  it('stops waiting after lingerMs: a client that declared a body and sends none is closed', async () => {
    const port = await earlyAnswerServer({ lingerMs: 200 });
    const { response, closedAfterMs } = await exchange(port, 1_000_000, 0);
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(closedAfterMs).toBeGreaterThanOrEqual(150);
    expect(closedAfterMs).toBeLessThan(3_000);
  });

  it('does not linger when the body had arrived: the connection closes with the response', async () => {
    const port = await earlyAnswerServer({ lingerMs: 10_000 });
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    socket.on('data', (data) => (response += data.toString('latin1')));
    const started = Date.now();
    socket.write('POST /api/x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
    await new Promise((resolve) => socket.on('close', resolve));
    expect(response).toMatch(/^HTTP\/1\.1 413/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
