// /api/mcp: Gatehouse as an MCP server (Streamable HTTP) for MCP clients with an API token. POST
// carries every message; there is no server-initiated stream (GET) and a session ends with its
// client (DELETE), so both are 405 as the transport allows. Malformed JSON-RPC is a JSON-RPC error.
import { z } from 'zod';
import { readJson } from '@/lib/server/http/body';
import { toAppError } from '@/lib/server/http/errors';
import { handle, tokenOnly } from '@/lib/server/http/handler';
import { handleMcpPost } from '@/lib/server/mcp-server/endpoint';
import { jsonRpcError } from '@/lib/server/mcp-server/json-rpc';
import { mcpDeps } from '@/lib/server/mcp-server/runtime-deps';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = tokenOnly(
  handle('runs:start', async (request, _params, rt, user) => {
    let body: unknown;
    try {
      body = await readJson(request, z.unknown(), rt.config.maxBodyBytes);
    } catch (error) {
      const e = toAppError(error);
      return jsonRpcError(e.status, e.status === 400 ? -32700 : -32600, e.message);
    }
    return handleMcpPost(request, body, { ...user, tokenId: user.tokenId! }, mcpDeps(rt));
  }),
);

const notAllowed = () =>
  jsonRpcError(405, -32000, 'Method not allowed: send every message with POST', null, { Allow: 'POST' });

export const GET = tokenOnly(handle('runs:start', async () => notAllowed()));
export const DELETE = tokenOnly(handle('runs:start', async () => notAllowed()));
