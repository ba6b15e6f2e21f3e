// POST /api/chat: starts a run (detached from this request) and streams its events as SSE.
// The first event is `connected` with the session and run ids; closing the stream stops only
// the stream, never the run. The stream ends when the caller's credential stops being valid.
// A caller who holds as many streams as they may (stream-slots.ts) gets a 429 and no run.
import type { ConnectedEvent } from '@/lib/contract';
import { importDraftPolicy } from '@/lib/policy';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { runEventStream } from '@/lib/server/http/run-stream';
import { streamSlots } from '@/lib/server/http/stream-slots';
import { assertSessionUsable } from '@/lib/server/runs/run-access';
import { ChatRequestSchema } from '@/lib/contract';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('runs:start', async (request, _params, rt, user) => {
  const body = await readJson(request, ChatRequestSchema, rt.config.maxBodyBytes);
  if (body.sessionId) await assertSessionUsable(rt.q, user, body.sessionId);
  // Any user's per-run policy: within the draft limits and valid before a run is created (400 naming the field).
  if (body.permissions !== undefined) importDraftPolicy(body.permissions);
  // The stream's slot before the run: no run starts that its caller could not follow.
  const slot = streamSlots().take(user.id, rt.config.maxStreamsPerUser);
  try {
    const { runId, sessionId } = await rt.runs.start({
      messages: body.messages,
      sessionId: body.sessionId,
      mode: body.mode,
      permissions: body.permissions,
      agent: body.agent,
      tools: body.tools,
      model: body.model,
      owner: user.id,
    });
    const connected: ConnectedEvent = { type: 'connected', sessionId, runId, agentId: 'main', parents: [] };
    const first = { event: 'connected', data: connected };
    return runEventStream(request, rt, { runId, owner: user.id, user, first, slot });
  } catch (error) {
    // No stream took the slot (a stream that did releases it itself; a second release is a no-op).
    slot.release();
    throw error;
  }
});
