// POST /api/hooks/gemini-cli on the fast path (fast-routes.ts): that path exactly goes to Gemini
// CLI's hook handler, Claude Code's path to Claude Code's, anything else to Next.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFastRoutes, matchGeminiHook } from './fast-routes';

describe('matchGeminiHook', () => {
  it.each([
    ['POST', '/api/hooks/gemini-cli', true],
    ['POST', '/api/hooks/gemini-cli?deadline=45', true],
    ['GET', '/api/hooks/gemini-cli', false],
    ['POST', '/api/hooks/gemini-cli/', false],
    ['POST', '/api/hooks/gemini-clix', false],
    ['POST', '/API/hooks/gemini-cli', false],
    ['POST', '/api/hooks/claude-code', false],
    [undefined, '/api/hooks/gemini-cli', false],
    ['POST', undefined, false],
  ] as const)('%s %s -> %s (anything not exact is left to Next)', (method, url, fast) => {
    expect(matchGeminiHook(method, url)).toBe(fast);
  });
});

describe('POST /api/hooks/gemini-cli on the fast path over HTTP', () => {
  let nextServed = 0;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const fast = createFastRoutes(
      async () => new Response('decide'),
      async () => new Response('claude-code'),
      async () => new Response('mcp'),
      async () => new Response('gemini-cli'),
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
  });

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

  it("serves each hook path with its own agent's handler; other methods and paths reach Next", async () => {
    expect(await send('POST', '/api/hooks/gemini-cli?deadline=45')).toBe('gemini-cli');
    expect(await send('POST', '/api/hooks/claude-code')).toBe('claude-code');
    expect(await send('POST', '/api/mcp')).toBe('mcp');
    expect(nextServed).toBe(0);
    expect(await send('GET', '/api/hooks/gemini-cli')).toBe('next');
    expect(await send('POST', '/api/hooks/gemini-cli/')).toBe('next');
    expect(nextServed).toBe(2);
  });
});
