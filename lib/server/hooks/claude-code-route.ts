// POST /api/hooks/claude-code: Claude Code's `http` hook on PreToolUse and PermissionRequest,
// authenticated with an API token (Authorization: Bearer). The request is held while a person
// decides; when it ends first the relay is cancelled. The answer is Claude Code's hook output.
// Two callers serve it, as decide-relay.ts: the Next route and the custom server's fast path
// (routes/fast-routes.ts), which skips Next's router on every tool call Claude Code makes.
import { z } from 'zod';
import type { AuthUser } from '../../auth';
import { readJson } from '../http/body';
import { agentRoute, searchParams } from '../http/handler';
import type { RouteRequest } from '../http/route-request';
import { mcpDeps } from '../mcp-server/runtime-deps';
import { servedTool } from '../mcp-server/tool-calls';
import type { Runtime } from '../runtime';
import {
  ClaudeCodeHookQuerySchema,
  decideHook,
  hookOutput,
  parseHookInput,
  type ClaudeCodeHookDeps,
} from './claude-code';
import { jsonResponse } from '../http/known-body';

export const claudeCodeHook = agentRoute<Record<string, never>, RouteRequest>(
  'runs:start',
  async (request, _params, rt, user) => {
    const query = searchParams(request, ClaudeCodeHookQuerySchema);
    const input = parseHookInput(await readJson(request, z.unknown(), rt.config.maxBodyBytes));
    const verdict = await decideHook(hookDeps(rt, user), user.id, input, query, request.signal);
    return jsonResponse(hookOutput(input.hook_event_name, verdict), {}, request);
  },
);

/** /api/mcp's own lookup for this token (read only for an `mcp__<name>__*` call); no token: nothing served. */
function hookDeps(rt: Runtime, user: AuthUser): ClaudeCodeHookDeps {
  const { tokenId } = user;
  return {
    gate: rt.external,
    mcpServes: async (name) => tokenId !== undefined && (await servedTool(mcpDeps(rt), tokenId, name)) !== undefined,
  };
}
