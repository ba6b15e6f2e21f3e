// POST /api/hooks/gemini-cli: Gemini CLI's BeforeTool input, posted by its command hook
// (scripts/gatehouse-hook.mjs) with an API token (Authorization: Bearer). The request is held while
// a person decides; when it ends first the relay is cancelled. The answer is Gemini CLI's hook
// output. Served by the Next route and by the custom server's fast path, as claude-code-route.ts.
import { z } from 'zod';
import { readJson } from '../http/body';
import { agentRoute, searchParams } from '../http/handler';
import type { RouteRequest } from '../http/route-request';
import { GeminiCliHookQuerySchema, decideGeminiHook, geminiHookOutput, parseGeminiHookInput } from './gemini-cli';

export const geminiCliHook = agentRoute<Record<string, never>, RouteRequest>(
  'runs:start',
  async (request, _params, rt, user) => {
    const query = searchParams(request, GeminiCliHookQuerySchema);
    const input = parseGeminiHookInput(await readJson(request, z.unknown(), rt.config.maxBodyBytes));
    const verdict = await decideGeminiHook(rt.external, user.id, input, query, request.signal);
    return Response.json(geminiHookOutput(verdict));
  },
);
