// GET /api/runs/:id/events: the run's event log as SSE, resuming after `Last-Event-ID` (or
// `?after=`), then following live events until the run is done, or until the caller's credential
// stops being valid or they may no longer see the run.
import { isFinishedStatus } from '@/lib/contract';
import { AppError } from '@/lib/server/http/errors';
import { handle, signedIn } from '@/lib/server/http/handler';
import { visibleRun } from '@/lib/server/runs/run-access';
import { MAX_INT4 } from '@/lib/server/http/input';
import { sseResponse } from '@/lib/server/http/sse';
import { runStreamGuard } from '@/lib/server/http/stream-guard';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle<{ id: string }>('runs:read:own', async (request, { id }, rt, user) => {
  const run = await visibleRun(rt.q, user, id);
  const after = afterSeq(request);
  const finished = isFinishedStatus(run.status);
  return sseResponse(
    request.signal,
    async (send, close) => {
      const unsubscribe = await rt.runs.subscribe(id, after, (event) => {
        send({ id: event.seq, event: event.type, data: event });
        if (event.type === 'done') close();
      }, close);
      // A finished run that is not live any more has nothing left to follow.
      if (finished && !rt.runs.isLive(id)) close();
      return unsubscribe;
    },
    rt.config.sseHeartbeatMs,
    runStreamGuard({ rt, headers: request.headers, user: signedIn(user), run: { owner: run.owner } }),
    { runId: id },
  );
});

/** The sequence number to resume after: `Last-Event-ID` wins over `?after=`; absent or blank is 0. */
function afterSeq(request: Request): number {
  const header = request.headers.get('last-event-id');
  const [path, raw] = header !== null ? ['Last-Event-ID', header] : ['after', new URL(request.url).searchParams.get('after') ?? '0'];
  const text = raw.trim();
  const after = text === '' ? 0 : /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(after <= MAX_INT4)) throw AppError.badRequest(`${path} must be an event sequence number (a non-negative integer)`, [{ path, message: `got "${raw}"` }]);
  return after;
}
