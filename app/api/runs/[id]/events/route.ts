// GET /api/runs/:id/events: the run's event log as SSE, resuming after `Last-Event-ID` (or
// `?after=`), then following live events until the run is done, or until the caller's credential
// stops being valid or they may no longer see the run.
import { z } from 'zod';
import { isFinishedStatus } from '@/lib/contract';
import { AppError } from '@/lib/server/http/errors';
import { handle, searchParams } from '@/lib/server/http/handler';
import { MAX_INT4 } from '@/lib/server/http/input';
import { runEventStream } from '@/lib/server/http/run-stream';
import { visibleRun } from '@/lib/server/runs/run-access';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const QuerySchema = z.object({ after: z.string().optional() });

export const GET = handle<{ id: string }>('runs:read:own', async (request, { id }, rt, user) => {
  const run = await visibleRun(rt.q, user, id);
  return runEventStream(request, rt, {
    runId: id,
    owner: run.owner,
    user,
    after: afterSeq(request),
    finished: isFinishedStatus(run.status),
  });
});

/** The sequence number to resume after: `Last-Event-ID` wins over `?after=`; absent or blank is 0. */
function afterSeq(request: Request): number {
  const header = request.headers.get('last-event-id');
  const [path, raw] =
    header !== null ? ['Last-Event-ID', header] : ['after', searchParams(request, QuerySchema).after ?? '0'];
  const text = raw.trim();
  const after = text === '' ? 0 : /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  if (!(after <= MAX_INT4))
    throw AppError.badRequest(`${path} must be an event sequence number (a non-negative integer)`, [
      { path, message: `got "${raw}"` },
    ]);
  return after;
}
