// POST /api/mcp on the fast path (fast-routes.ts): only that exactly, with the handler injected
// (no runtime, no Next); a JSON answer in one write, an event stream written as it comes and
// cancelled when the client goes away (the MCP handler's "not live").
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFastRoutes, matchMcp, type McpHandler } from './fast-routes';

describe('matchMcp', () => {
  it.each([
    ['POST', '/api/mcp', true],
    ['POST', '/api/mcp?x=1', true],
    ['GET', '/api/mcp', false],
    ['DELETE', '/api/mcp', false],
    ['POST', '/api/mcp/', false],
    ['POST', '/api/mcpx', false],
    ['POST', '/API/mcp', false],
    ['POST', '/api/mcp/tools', false],
    [undefined, '/api/mcp', false],
    ['POST', undefined, false],
  ] as const)('%s %s -> %s (anything not exact is left to Next)', (method, url, fast) => {
    expect(matchMcp(method, url)).toBe(fast);
  });
});

describe('POST /api/mcp on the fast path over HTTP', () => {
  let mcp: McpHandler;
  let nextServed = 0;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const fast = createFastRoutes(
      async () => new Response('decide'),
      undefined,
      (request, context) => mcp(request, context),
    );
    server = http.createServer((req, res) => {
      if (fast(req, res, { hostname: '127.0.0.1', port })) return;
      nextServed++;
      req.resume();
      req.on('end', () => res.end('next'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    nextServed = 0;
    mcp = async () => Response.json({ jsonrpc: '2.0', id: 1, result: {} });
  });

  const request = (method: string, path = '/api/mcp') =>
    new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path }, resolve);
      req.on('error', reject);
      req.end(method === 'POST' ? '{}' : undefined);
    });
  const text = (res: http.IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });

  it('serves POST /api/mcp; GET, DELETE and other paths reach Next', async () => {
    for (const [method, path] of [
      ['GET', '/api/mcp'],
      ['DELETE', '/api/mcp'],
      ['POST', '/api/mcp/'],
    ] as const)
      expect(await text(await request(method, path))).toBe('next');
    expect(nextServed).toBe(3);
    const reply = await request('POST');
    expect(reply.headers['content-length']).toBeDefined();
    expect(JSON.parse(await text(reply))).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(nextServed).toBe(3);
  });

  it('writes an event stream as it comes: the first event arrives before the stream ends', async () => {
    let push!: (chunk: string) => void;
    let end!: () => void;
    mcp = async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          push = (chunk) => controller.enqueue(new TextEncoder().encode(chunk));
          end = () => controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const res = await request('POST');
    expect(res.headers['content-type']).toBe('text/event-stream');
    push('event: message\ndata: 1\n\n');
    const first = await new Promise<string>((resolve) => res.once('data', (chunk: Buffer) => resolve(String(chunk))));
    expect(first).toBe('event: message\ndata: 1\n\n');
    push('event: message\ndata: 2\n\n');
    end();
    expect(await text(res)).toBe('event: message\ndata: 2\n\n');
  });

  it('cancels the stream when the client goes away', async () => {
    let cancelled!: () => void;
    const sawCancel = new Promise<void>((resolve) => (cancelled = resolve));
    mcp = async () =>
      new Response(new ReadableStream({ cancel: () => cancelled() }), {
        headers: { 'content-type': 'text/event-stream' },
      });
    const res = await request('POST');
    res.destroy();
    await sawCancel;
  });
});
