// GET /api/runs/:id/events: the run's event log as SSE, resuming after `Last-Event-ID` (or
// `?after=`), then following live events until the run is done.
import { AppError, toResponse } from '@/lib/server/errors';
import { getRuntime } from '@/lib/server/runtime';
import { sseResponse } from '@/lib/server/sse';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await context.params;
    const rt = await getRuntime();
    const run = await rt.q.runs.getRun({ id });
    if (!run) throw new AppError('not_found:run', 404, 'No such run');
    const raw = request.headers.get('last-event-id') ?? new URL(request.url).searchParams.get('after') ?? '0';
    const after = Number(raw);
    if (!Number.isInteger(after) || after < 0) throw AppError.badRequest('Last-Event-ID must be a non-negative integer', [{ path: 'Last-Event-ID', message: `got "${raw}"` }]);
    const finished = run.status === 'done' || run.status === 'failed' || run.status === 'cancelled';
    return sseResponse(request.signal, async (send, close) => {
      const unsubscribe = await rt.runs.subscribe(id, after, (event) => {
        send({ id: event.seq, event: event.type, data: { ...event.data, type: event.type, seq: event.seq } });
        if (event.type === 'done') close();
      });
      // A finished run that is not live any more has nothing left to follow.
      if (finished && !rt.runs.isLive(id)) close();
      return unsubscribe;
    });
  } catch (error) {
    return toResponse(error);
  }
}
