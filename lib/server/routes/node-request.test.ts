// NodeRouteRequest.readBody over a real node HTTP server: the body whole however it arrives, as
// soon as its last byte is parsed, under the limit, and a client gone mid-body is an error.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeRouteRequest } from './node-request';

interface Read {
  body: Buffer | 'too_large' | Error;
  /** Whether the request's stream had emitted 'end' when readBody settled. */
  endedFirst: boolean;
}

let server: http.Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A server whose every request is read with readBody(maxBytes); resolves with the first read. */
async function reading(maxBytes: number): Promise<{ port: number; read: Promise<Read> }> {
  let settle!: (read: Read) => void;
  const read = new Promise<Read>((resolve) => (settle = resolve));
  server = http.createServer((req, res) => {
    const request = new NodeRouteRequest(req, res, undefined);
    request.readBody(maxBytes).then(
      (body) => {
        settle({ body, endedFirst: req.readableEnded });
        res.end(body === 'too_large' ? 'too large' : `read ${body.length}`);
      },
      (error: Error) => settle({ body: error, endedFirst: req.readableEnded }),
    );
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { port: (server!.address() as AddressInfo).port, read };
}

/** Writes `parts` to a raw socket, `gapMs` apart; resolves with the socket once all are written. */
async function send(port: number, parts: string[], gapMs = 20): Promise<net.Socket> {
  const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  for (const [i, part] of parts.entries()) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
    socket.write(part);
  }
  return socket;
}

const head = (length: number) => `POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: ${length}\r\n\r\n`;

describe('NodeRouteRequest.readBody', () => {
  it('gives a body of the declared length as soon as its last byte is parsed, before the stream ends', async () => {
    const { port, read } = await reading(1024);
    const socket = await send(port, [`${head(11)}{"a":"bcd"}`]);
    const { body, endedFirst } = await read;
    expect(String(body)).toBe('{"a":"bcd"}');
    expect(endedFirst).toBe(false);
    socket.destroy();
  });

  it('waits for the last of a body sent in pieces, and gives it whole', async () => {
    const { port, read } = await reading(1024);
    const socket = await send(port, [head(9), 'abc', 'def', 'ghi']);
    expect(String((await read).body)).toBe('abcdefghi');
    socket.destroy();
  });

  it('gives an empty body for Content-Length: 0', async () => {
    const { port, read } = await reading(1024);
    const socket = await send(port, [head(0)]);
    expect((await read).body).toEqual(Buffer.alloc(0));
    socket.destroy();
  });

  it('gives a chunked body whole, once the stream has ended', async () => {
    const { port, read } = await reading(1024);
    const chunked = 'POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n';
    const socket = await send(port, [chunked, '3\r\nabc\r\n', '2\r\nde\r\n', '0\r\n\r\n']);
    const { body, endedFirst } = await read;
    expect(String(body)).toBe('abcde');
    expect(endedFirst).toBe(true);
    socket.destroy();
  });

  it('says too_large for a body over the limit, whether declared or streamed', async () => {
    const declared = await reading(4);
    const first = await send(declared.port, [`${head(5)}abcde`]);
    expect((await declared.read).body).toBe('too_large');
    first.destroy();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const streamed = await reading(4);
    const chunked = 'POST /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n';
    const second = await send(streamed.port, [chunked, '3\r\nabc\r\n', '3\r\ndef\r\n', '0\r\n\r\n']);
    expect((await streamed.read).body).toBe('too_large');
    second.destroy();
  });

  it('fails when the client goes away before the whole body came', async () => {
    const { port, read } = await reading(1024);
    const socket = await send(port, [head(10), 'abc']);
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    const { body } = await read;
    expect(body).toBeInstanceOf(Error);
  });
});
