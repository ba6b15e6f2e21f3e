// POST /api/chat: starts a run (detached from this request) and streams its events as SSE.
// The first event is `connected` with the session and run ids; closing the stream stops only
// the stream, never the run.
import { readJson } from '@/lib/server/body';
import { toResponse } from '@/lib/server/errors';
import { getRuntime } from '@/lib/server/runtime';
import { sseResponse } from '@/lib/server/sse';
import { ChatRequestSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  try {
    const rt = await getRuntime();
    const body = await readJson(request, ChatRequestSchema, rt.config.maxBodyBytes);
    const { runId, sessionId } = await rt.runs.start({
      messages: body.messages,
      sessionId: body.sessionId,
      mode: body.mode,
      permissions: body.permissions,
      agent: body.agent,
      tools: body.tools,
      model: body.model,
    });
    return sseResponse(request.signal, async (send, close) => {
      send({ event: 'connected', data: { type: 'connected', sessionId, runId } });
      return rt.runs.subscribe(runId, 0, (event) => {
        send({ id: event.seq, event: event.type, data: { ...event.data, type: event.type, seq: event.seq } });
        if (event.type === 'done') close();
      });
    }, rt.config.sseHeartbeatMs);
  } catch (error) {
    return toResponse(error);
  }
}
