// POST /api/hooks/codex: Codex CLI's PreToolUse input, posted by its command hook
// (scripts/gatehouse-hook.mjs --codex) with an API token (Authorization: Bearer). The request is
// held while a person decides; when it ends first the relay is cancelled. The answer is Codex's
// hook output. Served by the Next route and by the custom server's fast path, as gemini-cli-route.ts.
import { z } from 'zod';
import { readJson } from '../http/body';
import { agentRoute, searchParams } from '../http/handler';
import type { RouteRequest } from '../http/route-request';
import { CodexHookQuerySchema, codexHookOutput, decideCodexHook, parseCodexHookInput } from './codex';

export const codexHook = agentRoute<Record<string, never>, RouteRequest>(
  'runs:start',
  async (request, _params, rt, user) => {
    const query = searchParams(request, CodexHookQuerySchema);
    const input = parseCodexHookInput(await readJson(request, z.unknown(), rt.config.maxBodyBytes));
    const verdict = await decideCodexHook(rt.external, user.id, input, query, request.signal);
    return Response.json(codexHookOutput(verdict));
  },
);
