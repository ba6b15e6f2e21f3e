// The coding CLIs' hook paths on the fast path (fast-routes.ts): each path exactly goes to its own
// agent's handler, a neighbour's path never to it, and anything else (another method, a trailing
// slash, another case) to Next. One table over Claude Code, Gemini CLI and Codex CLI.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFastRoutes, matchCodexHook, matchGeminiHook, matchHook } from './fast-routes';

const HOOKS = [
  { agent: 'claude-code', path: '/api/hooks/claude-code', match: matchHook },
  { agent: 'gemini-cli', path: '/api/hooks/gemini-cli', match: matchGeminiHook },
  { agent: 'codex', path: '/api/hooks/codex', match: matchCodexHook },
];

type Case = [method: string | undefined, url: string, fast: boolean];

describe.each(HOOKS)('the $agent hook path', ({ path, match }) => {
  const cases: Case[] = [
    ['POST', path, true],
    ['POST', `${path}?deadline=45`, true],
    ['GET', path, false],
    ['POST', `${path}/`, false],
    ['POST', `${path}x`, false],
    ['POST', path.toUpperCase(), false],
    [undefined, path, false],
    ['POST', '/api/hooks/decide', false],
    ...HOOKS.filter((other) => other.path !== path).map((other): Case => ['POST', other.path, false]),
  ];
  it.each(cases)('%s %s is its own: %s', (method, url, fast) => {
    expect(match(method, url)).toBe(fast);
  });
});

describe('the hook paths over HTTP', () => {
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

  it.each(HOOKS)(
    "$agent's path is served by its own handler; its other methods and paths reach Next",
    async ({ agent, path }) => {
      expect(await send('POST', `${path}?deadline=45`)).toBe(agent);
      expect(await send('POST', '/api/mcp')).toBe('mcp');
      expect(nextServed).toBe(0);
      expect(await send('GET', path)).toBe('next');
      expect(await send('POST', `${path}/`)).toBe('next');
      expect(nextServed).toBe(2);
    },
  );
});
