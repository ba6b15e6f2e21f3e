// The decision route's fast path over a real node HTTP server, with the handler injected (no
// runtime, no Next): what it takes, what it leaves to Next, and what reaches the handler and back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { readJson } from '../http/body';
import { toResponse } from '../http/errors';
import { createFastRoutes, matchDecision, type DecideHandler } from './fast-routes';
import { hasDirectBody, type RouteRequest } from '../http/route-request';

/** The body as the decision route reads it: straight from node's stream (readBody). */
async function bodyText(request: RouteRequest): Promise<string> {
  expect(hasDirectBody(request)).toBe(true);
  const body = await (request as RouteRequest & { readBody(max: number): Promise<Buffer | 'too_large'> }).readBody(
    1 << 20,
  );
  return body === 'too_large' ? body : body.toString();
}

describe('matchDecision', () => {
  it.each([
    ['POST', '/api/chat/relay/abc', 'abc'],
    ['POST', '/api/chat/relay/abc?x=1&y', 'abc'],
    ['POST', '/api/chat/relay/rl_0-9.x~', 'rl_0-9.x~'],
    ['POST', '/api/chat/relay/a%20b', 'a b'],
    ['POST', '/api/chat/relay/%C3%A9t%C3%A9', 'été'],
    ['POST', '/api/chat/relay/a%00b', 'a\0b'], // the handler's NUL check answers 400, as through Next
  ])('%s %s is the fast path, id %j', (method, url, id) => {
    expect(matchDecision(method, url)).toBe(id);
  });

  it.each([
    ['GET', '/api/chat/relay/abc'],
    ['PUT', '/api/chat/relay/abc'],
    ['post', '/api/chat/relay/abc'],
    ['POST', '/api/chat/relay/'],
    ['POST', '/api/chat/relay/?x=1'],
    ['POST', '/api/chat/relay/abc/'],
    ['POST', '/api/chat/relay/abc/more'],
    ['POST', '/api/chat/relay//abc'],
    ['POST', '/api/chat/relay/a\\b'],
    ['POST', '/api/chat/relay/..'],
    ['POST', '/api/chat/relay/.'],
    ['POST', '/api/chat/relay/%2e%2E'],
    ['POST', '/api/chat/relay/a%2Fb'],
    ['POST', '/api/chat/relay/a%5Cb'],
    ['POST', '/api/chat/relay/%zz'],
    ['POST', '/api/chat/relay/a"b'],
    ['POST', '/api/chat/relay/é'],
    ['POST', '/api/chat/relay/a#b'],
    ['POST', '/API/chat/relay/abc'],
    ['POST', '/api/chat/relays/abc'],
    ['POST', '/api/chat/relay'],
    ['POST', 'http://example.com/api/chat/relay/abc'],
    ['POST', '/x/api/chat/relay/abc'],
    [undefined, '/api/chat/relay/abc'],
    ['POST', undefined],
  ])('%s %s is left to Next', (method, url) => {
    expect(matchDecision(method, url)).toBeUndefined();
  });
});

describe('createFastRoutes over HTTP', () => {
  let decide: DecideHandler;
  const calls: { request: RouteRequest; relayId: string; body: string }[] = [];
  let nextServed = 0;
  let server: http.Server;
  let port: number;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    const fast = createFastRoutes((request, context) => decide(request, context));
    server = http.createServer((req, res) => {
      if (fast(req, res, { hostname: '127.0.0.1', port })) return;
      // What Next would do: the fast path must not have touched the response.
      nextServed++;
      expect(res.headersSent).toBe(false);
      req.resume();
      req.on('end', () => res.end('next'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    calls.length = 0;
    nextServed = 0;
    decide = async (request, context) => {
      const { relayId } = await context.params;
      calls.push({ request, relayId, body: await bodyText(request) });
      return Response.json({ success: true });
    };
  });

  type Reply = { status: number; headers: http.IncomingHttpHeaders; body: string; reused: boolean };
  function send(
    method: string,
    path: string,
    body?: string | Buffer,
    headers: Record<string, string> = {},
  ): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            reused: req.reusedSocket,
          }),
        );
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('answers only POST /api/chat/relay/<id>; anything else reaches Next untouched', async () => {
    for (const [method, path] of [
      ['GET', '/api/chat/relay/r1'],
      ['POST', '/api/chat/relay/r1/'],
      ['POST', '/api/chat/relay'],
      ['POST', '/api/runs'],
      ['DELETE', '/api/chat/relay/r1'],
    ] as const) {
      const reply = await send(method, path, method === 'POST' ? '{}' : undefined);
      expect(reply.body, `${method} ${path}`).toBe('next');
    }
    expect(nextServed).toBe(5);
    expect(calls).toEqual([]);
    const reply = await send('POST', '/api/chat/relay/r%201?ignored=1', '{}', { 'content-type': 'application/json' });
    expect(reply.body).toBe('{"success":true}');
    expect(calls.map((c) => c.relayId)).toEqual(['r 1']);
    expect(nextServed).toBe(5);
  });

  it('hands the handler the URL, method, headers and body, as Next builds them', async () => {
    const body = JSON.stringify({ sessionId: 's1', response: { approved: true } });
    await send('POST', '/api/chat/relay/rl_1?from=test', body, {
      'content-type': 'application/json',
      authorization: 'Bearer tok',
      origin: 'http://127.0.0.1',
      'x-custom': 'yes',
    });
    const [call] = calls;
    expect(call!.relayId).toBe('rl_1');
    expect(call!.body).toBe(body);
    const { request } = call!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe(`http://localhost:${port}/api/chat/relay/rl_1?from=test`);
    expect(request.headers.get('authorization')).toBe('Bearer tok');
    expect(request.headers.get('x-custom')).toBe('yes');
    expect(request.headers.get('content-length')).toBe(String(body.length));
    // Filled in as Next does when no proxy set them.
    expect(request.headers.get('x-forwarded-host')).toBe(`127.0.0.1:${port}`);
    expect(request.headers.get('x-forwarded-port')).toBe(String(port));
    expect(request.headers.get('x-forwarded-proto')).toBe('http');
    expect(request.headers.get('x-forwarded-for')).toBe('127.0.0.1');
  });

  it('reads headers as Headers.get does: any case, repeated values joined, null when absent', async () => {
    await new Promise<void>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/chat/relay/r', agent }, (res) =>
        res.resume().on('end', resolve),
      );
      req.setHeader('X-Many', ['a', 'b']);
      req.setHeader('Content-Type', 'application/json');
      req.on('error', reject);
      req.end('{}');
    });
    const { headers } = calls[0]!.request;
    expect(headers.get('X-MANY')).toBe(
      new Headers([
        ['x-many', 'a'],
        ['x-many', 'b'],
      ]).get('x-many'),
    );
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('x-absent')).toBeNull();
  });

  it('offers the body as a Web stream too, and only one read of it', async () => {
    const seen: string[] = [];
    decide = async (request) => {
      seen.push(await new Response(request.body).text());
      const again = hasDirectBody(request)
        ? await request.readBody(100).catch((error: Error) => error.message)
        : 'no direct body';
      seen.push(String(again));
      return Response.json({ success: true });
    };
    const reply = await send('POST', '/api/chat/relay/r', 'x'.repeat(70_000), { 'content-type': 'application/json' });
    expect(reply.status).toBe(200);
    expect(seen).toEqual(['x'.repeat(70_000), 'The request body has already been read']);
  });

  it("keeps a proxy's X-Forwarded-* headers", async () => {
    await send('POST', '/api/chat/relay/r', '{}', {
      'x-forwarded-host': 'gate.example',
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '203.0.113.7',
    });
    const { request } = calls[0]!;
    expect(request.url).toBe(`https://localhost:${port}/api/chat/relay/r`);
    expect(request.headers.get('x-forwarded-host')).toBe('gate.example');
    expect(request.headers.get('x-forwarded-proto')).toBe('https');
    expect(request.headers.get('x-forwarded-for')).toBe('203.0.113.7');
  });

  it('writes back the status, every header (each Set-Cookie apart) and the body', async () => {
    decide = async () => {
      const headers = new Headers({ 'content-type': 'application/json', 'retry-after': '7', 'x-one': 'a' });
      headers.append('set-cookie', 'a=1; Path=/');
      headers.append('set-cookie', 'b=2; Path=/; HttpOnly');
      return new Response(JSON.stringify({ error: { code: 'conflict:relay_resolved' } }), { status: 409, headers });
    };
    const reply = await send('POST', '/api/chat/relay/r', '{}');
    expect(reply.status).toBe(409);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['retry-after']).toBe('7');
    expect(reply.headers['x-one']).toBe('a');
    expect(reply.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
    expect(JSON.parse(reply.body)).toEqual({ error: { code: 'conflict:relay_resolved' } });
  });

  it('turns a failure of the handler or of the adapter into a JSON error, and the connection lives on', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      decide = () => {
        throw new Error('boom');
      };
      const thrown = await send('POST', '/api/chat/relay/r', '{}');
      expect(thrown.status).toBe(500);
      expect(thrown.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(thrown.body)).toEqual({
        error: { code: 'internal', message: 'Something went wrong on the server' },
      });

      // A response body that fails while being written back.
      decide = async () =>
        new Response(new ReadableStream({ pull: (c) => c.error(new Error('broken body')) }), { status: 200 });
      const broken = await send('POST', '/api/chat/relay/r', '{}');
      expect(broken.status).toBe(500);
      expect(JSON.parse(broken.body).error.code).toBe('internal');

      // A lost database is a 503, as everywhere in the API.
      decide = async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
      };
      const down = await send('POST', '/api/chat/relay/r', '{}');
      expect(down.status).toBe(503);
      expect(JSON.parse(down.body).error.code).toBe('unavailable:database');

      decide = async () => Response.json({ success: true });
      const after = await send('POST', '/api/chat/relay/r', '{}');
      expect(after).toMatchObject({ status: 200, reused: true });
    } finally {
      quiet.mockRestore();
    }
  });

  it("refuses a body over the handler's limit (declared or streamed) with 413, and the connection carries the next request", async () => {
    const limit = 1024;
    decide = async (request) => {
      try {
        await readJson(request, z.object({ sessionId: z.string() }), limit);
        return Response.json({ success: true });
      } catch (error) {
        return toResponse(error);
      }
    };
    const big = Buffer.alloc(256 * 1024, 'x');
    const declared = await send('POST', '/api/chat/relay/r', big, { 'content-type': 'application/json' });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).error.code).toBe('payload_too_large');
    // Chunked, so only reading finds out: the handler cancels the stream part way.
    const streamed = await new Promise<Reply>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/chat/relay/r',
          agent,
          headers: { 'content-type': 'application/json' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: text, reused: req.reusedSocket }),
          );
        },
      );
      req.on('error', reject);
      for (let i = 0; i < 64; i++) req.write(Buffer.alloc(4096, 'y'));
      req.end();
    });
    expect(streamed.status).toBe(413);
    expect(streamed.reused).toBe(true);
    const small = await send('POST', '/api/chat/relay/r', JSON.stringify({ sessionId: 's' }), {
      'content-type': 'application/json',
    });
    expect(small).toMatchObject({ status: 200, body: '{"success":true}', reused: true });
  });

  it('drains a body the handler never read (e.g. a 401 before parsing)', async () => {
    decide = async () => Response.json({ error: { code: 'unauthorized' } }, { status: 401 });
    const refused = await send('POST', '/api/chat/relay/r', Buffer.alloc(200 * 1024, 'z'), {
      'content-type': 'application/json',
    });
    expect(refused.status).toBe(401);
    decide = async () => Response.json({ success: true });
    expect(await send('POST', '/api/chat/relay/r', '{}')).toMatchObject({ status: 200, reused: true });
  });

  it("aborts the request's signal when the client goes away, as Next does", async () => {
    let called!: () => void;
    const handling = new Promise<void>((resolve) => (called = resolve));
    const sawAbort = new Promise<void>((resolve) => {
      decide = (request) =>
        new Promise((answer) => {
          request.signal.addEventListener('abort', () => {
            resolve();
            answer(new Response(null, { status: 204 }));
          });
          called();
        });
    });
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/chat/relay/r' });
    req.on('error', () => undefined);
    req.end('{}');
    await handling;
    req.destroy();
    await sawAbort;
  });

  it('hands a signal that is already aborted when the client went away before the handler asked for it', async () => {
    let gone!: () => void;
    const clientGone = new Promise<void>((resolve) => (gone = resolve));
    const aborted = new Promise<boolean>((resolve) => {
      decide = async (request) => {
        gone();
        await new Promise((r) => setTimeout(r, 100));
        resolve(request.signal.aborted);
        return new Response(null, { status: 204 });
      };
    });
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/api/chat/relay/r' });
    req.on('error', () => undefined);
    req.end('{}');
    await clientGone;
    req.destroy();
    expect(await aborted).toBe(true);
  });
});
