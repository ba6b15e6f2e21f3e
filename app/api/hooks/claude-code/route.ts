// POST /api/hooks/claude-code: Claude Code's `http` hook on PreToolUse and PermissionRequest,
// authenticated with an API token (Authorization: Bearer). The request is held while a person
// decides; when it ends first the relay is cancelled. The answer is Claude Code's hook output.
import { z } from 'zod';
import { readJson } from '@/lib/server/http/body';
import { handle, searchParams, tokenOnly } from '@/lib/server/http/handler';
import { ClaudeCodeHookQuerySchema, decideHook, hookOutput, parseHookInput } from '@/lib/server/hooks/claude-code';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = tokenOnly(
  handle('runs:start', async (request, _params, rt, user) => {
    const query = searchParams(request, ClaudeCodeHookQuerySchema);
    const input = parseHookInput(await readJson(request, z.unknown(), rt.config.maxBodyBytes));
    const verdict = await decideHook(rt.external, user.id, input, query, request.signal);
    return Response.json(hookOutput(input.hook_event_name, verdict));
  }),
);
