// POST /api/hooks/claude-code: Claude Code's `http` hook on PreToolUse and PermissionRequest,
// authenticated with an API token (Authorization: Bearer). The request is held while a person
// decides; when it ends first the relay is cancelled. The answer is Claude Code's hook output.
// Two callers serve it, as decide-relay.ts: the Next route and the custom server's fast path
// (routes/fast-routes.ts), which skips Next's router on every tool call Claude Code makes.
import { z } from 'zod';
import { readJson } from '../http/body';
import { agentRoute, searchParams } from '../http/handler';
import type { RouteRequest } from '../http/route-request';
import { ClaudeCodeHookQuerySchema, decideHook, hookOutput, parseHookInput } from './claude-code';
import { jsonResponse } from '../http/known-body';

export const claudeCodeHook = agentRoute<Record<string, never>, RouteRequest>(
  'runs:start',
  async (request, _params, rt, user) => {
    const query = searchParams(request, ClaudeCodeHookQuerySchema);
    const input = parseHookInput(await readJson(request, z.unknown(), rt.config.maxBodyBytes));
    const verdict = await decideHook(rt.external, user.id, input, query, request.signal);
    return jsonResponse(hookOutput(input.hook_event_name, verdict), {}, request);
  },
);
