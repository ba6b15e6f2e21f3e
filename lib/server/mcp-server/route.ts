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
    let body: unknown;
    try {
      body = await readJson(request, z.unknown(), rt.config.maxBodyBytes);
    } catch (error) {
      const e = toAppError(error);
      return jsonRpcError(e.status, e.status === 400 ? -32700 : -32600, e.message);
    }
    return handleMcpPost(request, body, { ...user, tokenId: user.tokenId! }, mcpDeps(rt));
  },
);
