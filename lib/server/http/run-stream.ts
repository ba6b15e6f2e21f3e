// The one SSE response of a run's events (POST /api/chat and GET /api/runs/:id/events): the log
// after `after`, then live events, until `done`, the client leaves, or the caller's credential
// (or their sight of the run) ends. A finished run that is no longer executing closes at once.
// The stream holds one of its user's stream slots (stream-slots.ts) while it is open.
import type { AuthUser } from '../../auth';
import type { Runtime } from '../runtime';
import { sseResponse, type SseMessage } from './sse';
import { runStreamGuard } from './stream-guard';
import { streamSlots, type StreamSlot } from './stream-slots';

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
  /** The user's slot when the caller took it before its own work (POST /api/chat); else taken here. */
  slot?: StreamSlot;
}

/** The run's events as SSE; over the user's (or the process's) cap of open streams, a 429 `too_many_streams` instead. */
export function runEventStream(
  request: Request,
  rt: Runtime,
  { runId, owner, user, after = 0, first, finished = false, slot }: RunStreamInput,
): Response {
  const guard = runStreamGuard({ rt, headers: request.headers, user, run: { owner } });
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
    guard,
    { runId },
    // Taken last, so nothing between here and the stream that releases it can throw.
    slot ?? streamSlots().take(user.id, rt.config.maxStreamsPerUser),
  );
}
