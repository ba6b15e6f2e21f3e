// POST /api/mcp: the handler both callers serve, as claude-code-route.ts: the Next route
// (app/api/mcp/route.ts) and the custom server's fast path (routes/fast-routes.ts), which skips
// Next's router on every message an MCP client sends. Malformed JSON-RPC is a JSON-RPC error.
import { z } from 'zod';
import { readJson } from '../http/body';
import { toAppError } from '../http/errors';
import { agentRoute } from '../http/handler';
import type { RouteRequest } from '../http/route-request';
import { handleMcpPost } from './endpoint';
import { jsonRpcError } from './json-rpc';
import { mcpDeps } from './runtime-deps';

export const mcpPost = agentRoute<Record<string, never>, RouteRequest>(
  'runs:start',
  async (request, _params, rt, user) => {
    const read = await readMcpBody(request, rt.config.maxBodyBytes);
    if (read instanceof Response) return read;
    return handleMcpPost(request, read.body, { ...user, tokenId: user.tokenId! }, mcpDeps(rt));
  },
);

/** The parsed JSON body under the size limit, or the JSON-RPC error that answers a body that cannot be read. */
export async function readMcpBody(request: RouteRequest, maxBytes: number): Promise<{ body: unknown } | Response> {
  try {
    return { body: await readJson(request, z.unknown(), maxBytes) };
  } catch (error) {
    const e = toAppError(error);
    return jsonRpcError(e.status, e.status === 400 ? -32700 : -32600, e.message);
  }
}
