// The one SSE response of a run's events (POST /api/chat and GET /api/runs/:id/events): the log
// after `after`, then live events, until `done`, the client leaves, or the caller's credential
// (or their sight of the run) ends. A finished run that is no longer executing closes at once.
import type { AuthUser } from '../../auth';
import type { Runtime } from '../runtime';
import { sseResponse, type SseMessage } from './sse';
import { runStreamGuard } from './stream-guard';

export interface RunStreamInput {
  runId: string;
  /** The run's owner (runs.owner), which the guard re-checks the caller against. */
  owner: string | null;
  user: AuthUser;
  /** The last sequence number the client has (0: from the start). */
  after?: number;
  /** Sent before the log (the chat's `connected`). */
  first?: SseMessage;
  /** The run was finished when the request was checked. */
  finished?: boolean;
}

export function runEventStream(
  request: Request,
  rt: Runtime,
  { runId, owner, user, after = 0, first, finished = false }: RunStreamInput,
): Response {
  return sseResponse(
    request.signal,
    async (send, close, ready) => {
      if (first) send(first);
      const unsubscribe = await rt.runs.subscribe(
        runId,
        after,
        (event) => {
          send({ id: event.seq, event: event.type, data: event });
          // The replay reads on only once the client has read what it was sent.
          return event.type === 'done' ? close() : ready();
        },
        close,
      );
      // A finished run that is not live any more has nothing left to follow.
      if (finished && !rt.runs.isLive(runId)) close();
      return unsubscribe;
    },
    rt.config.sseHeartbeatMs,
    runStreamGuard({ rt, headers: request.headers, user, run: { owner } }),
    { runId },
  );
}
