// /api/mcp's route tests over real HTTP: a node server that offers every request to the custom
// server's fast path (as scripts/server.mjs does), and the official SDK client connected to it.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastRoutes } from '@/lib/server/routes/fast-routes';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface FastServer {
  base: string;
  close(): Promise<void>;
}

/**
 * Listens on a free loopback port; `seen` is told of every request first. What the fast path does
 * not take is `notFast`'s (default: 405, as Next answers a method /api/mcp does not have).
 */
export async function listenFast(
  fast: FastRoutes,
  hooks: { seen?: Handler; notFast?: Handler } = {},
): Promise<FastServer> {
  const server = http.createServer((req, res) => {
    hooks.seen?.(req, res);
    if (fast(req, res, { hostname: '127.0.0.1', port: (server.address() as AddressInfo).port })) return;
    if (hooks.notFast) return hooks.notFast(req, res);
    res.statusCode = 405;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An SDK client connected to `${base}/api/mcp` with the token; `elicit` answers elicitations (and declares the capability). */
export async function connectMcp(base: string, name: string, token: string, elicit?: () => { action: 'accept' }) {
  const client = new Client({ name, version: '1' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async () => elicit());
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}
