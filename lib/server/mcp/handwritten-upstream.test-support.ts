// An MCP server over Streamable HTTP (JSON answers) written by hand, so a test can send what the
// SDK's server never would (endless pages, a tool listed twice, an answer that never ends). It
// answers `initialize` itself and hands every other request to `onRequest`, whose return value is
// the result (undefined: it answered itself). It records every JSON-RPC message it received.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Rpc {
  id?: string | number;
  method: string;
  params?: Record<string, unknown>;
}
export type Handler = (rpc: Rpc, res: ServerResponse, req: IncomingMessage) => unknown;

export const handwrittenTool = (name: string, description: string, annotations: Record<string, unknown> = {}) => ({
  name,
  description,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  annotations,
});

export async function startHandwritten(onRequest: Handler) {
  const seen: Rpc[] = [];
  const server = http.createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    let text = '';
    for await (const chunk of req) text += String(chunk);
    const rpc = JSON.parse(text) as Rpc;
    seen.push(rpc);
    if (rpc.id === undefined) return void res.writeHead(202).end();
    const result =
      rpc.method === 'initialize'
        ? {
            protocolVersion: (rpc.params?.protocolVersion as string) ?? '2025-06-18',
            capabilities: { tools: { listChanged: true } },
            serverInfo: { name: 'handwritten', version: '1.0.0' },
          }
        : await onRequest(rpc, res, req);
    if (result === undefined) return;
    res
      .writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'session-1' })
      .end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    seen,
    count: (method: string) => seen.filter((r) => r.method === method).length,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
