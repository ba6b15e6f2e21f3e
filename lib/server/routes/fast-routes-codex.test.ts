// POST /api/hooks/codex on the fast path (fast-routes.ts): that path exactly goes to Codex's hook
// handler, the other agents' paths to theirs, anything else to Next.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFastRoutes, matchCodexHook } from './fast-routes';

describe('matchCodexHook', () => {
  it.each([
    ['POST', '/api/hooks/codex', true],
    ['POST', '/api/hooks/codex?deadline=45', true],
    ['GET', '/api/hooks/codex', false],
    ['POST', '/api/hooks/codex/', false],
    ['POST', '/api/hooks/codexx', false],
    ['POST', '/api/hooks/gemini-cli', false],
    [undefined, '/api/hooks/codex', false],
    ['POST', undefined, false],
  ] as const)('%s %s -> %s (anything not exact is left to Next)', (method, url, fast) => {
    expect(matchCodexHook(method, url)).toBe(fast);
  });
});

describe('POST /api/hooks/codex on the fast path over HTTP', () => {
  let nextServed = 0;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const fast = createFastRoutes(
      async () => new Response('decide'),
      async () => new Response('claude-code'),
      async () => new Response('mcp'),
      async () => new Response('gemini-cli'),
      async () => new Response('codex'),
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

  const send = (method: string, path: string) =>
    new Promise<string>((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, method, path }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end(method === 'POST' ? '{}' : undefined);
    });

  it("serves Codex's hook path with its own handler; other methods and paths reach Next", async () => {
    expect(await send('POST', '/api/hooks/codex?deadline=45')).toBe('codex');
    expect(await send('POST', '/api/hooks/gemini-cli')).toBe('gemini-cli');
    expect(nextServed).toBe(0);
    expect(await send('GET', '/api/hooks/codex')).toBe('next');
    expect(await send('POST', '/api/hooks/codex/')).toBe('next');
    expect(nextServed).toBe(2);
  });
});
