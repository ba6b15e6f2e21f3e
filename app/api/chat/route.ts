// POST /api/chat: starts a run (detached from this request) and streams its events as SSE.
// The first event is `connected` with the session and run ids; closing the stream stops only
// the stream, never the run. The stream ends when the caller's credential stops being valid.
import type { ConnectedEvent } from '@/lib/contract';
import { importDraftPolicy } from '@/lib/policy';
import { readJson } from '@/lib/server/http/body';
import { handle, signedIn } from '@/lib/server/http/handler';
import { assertSessionUsable } from '@/lib/server/runs/run-access';
import { sseResponse } from '@/lib/server/http/sse';
import { runStreamGuard } from '@/lib/server/http/stream-guard';
import { ChatRequestSchema } from '@/lib/contract';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('runs:start', async (request, _params, rt, user) => {
  const me = signedIn(user);
  const body = await readJson(request, ChatRequestSchema, rt.config.maxBodyBytes);
  if (body.sessionId) await assertSessionUsable(rt.q, me, body.sessionId);
  // Any user's per-run policy: within the draft limits and valid before a run is created (400 naming the field).
  if (body.permissions !== undefined) importDraftPolicy(body.permissions);
  const { runId, sessionId } = await rt.runs.start({
    messages: body.messages,
    sessionId: body.sessionId,
    mode: body.mode,
    permissions: body.permissions,
    agent: body.agent,
    tools: body.tools,
    model: body.model,
    owner: me.id,
  });
  return sseResponse(request.signal, async (send, close) => {
    const connected: ConnectedEvent = { type: 'connected', sessionId, runId, agentId: 'main', parents: [] };
    send({ event: 'connected', data: connected });
    return rt.runs.subscribe(runId, 0, (event) => {
      send({ id: event.seq, event: event.type, data: event });
      if (event.type === 'done') close();
    }, close);
  }, rt.config.sseHeartbeatMs, runStreamGuard({ rt, headers: request.headers, user: me, run: { owner: me.id } }), { runId });
});
