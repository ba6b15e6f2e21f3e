// Server-sent events done right: no buffering anywhere on the way, a heartbeat comment every 15 s
// (GATEHOUSE_SSE_HEARTBEAT_MS) so proxies keep an idle stream open, each event with its sequence
// number as the SSE id, and the client's disconnect stops the stream (never the run).
// With a guard, the stream lives only as long as its caller's credential: it is re-checked on every
// heartbeat, and at once when the caller's credentials may have changed (a sign-out, a disable, a
// revoked token, on this instance or announced by another); events that arrive meanwhile wait for
// the answer, and a refused credential ends the stream with an `error` event.
import { formatSse, type ErrorEvent, type SseMessage } from '../../contract';

export type { SseMessage };
import { toAppError } from './errors';

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
} as const;

/** Whether a stream's caller may still receive it (lib/server/http/stream-guard.ts). */
export interface StreamGuard {
  /** Re-checks the credential the stream was opened with; false (or a throw) ends the stream. */
  check(): Promise<boolean>;
  /** Calls `listener` when the caller's credentials may have changed; returns the removal. */
  watch(listener: () => void): () => void;
}

/** The run a stream serves: the `error` that ends it names it, as every event does. */
export interface StreamOrigin {
  runId: string;
}

/** An `error` event that ends a stream (it is not in the run's log, so it has no `seq`). */
export function streamError(origin: StreamOrigin | undefined, code: string, message: string): SseMessage {
  const data: ErrorEvent = { type: 'error', runId: origin?.runId ?? '', agentId: 'main', parents: [], code, message };
  return { event: 'error', data };
}

/** The event that ends a stream whose caller lost access. */
export const accessEnded = (origin?: StreamOrigin) =>
  streamError(origin, 'unauthorized', 'The stream ended: the session or token it was opened with is no longer valid');

/**
 * A streaming response. `start` gets `send` and `close` and returns a cleanup; the stream ends
 * when `close` is called or the client goes away (`signal`), and the cleanup runs exactly once.
 * An error thrown by `start` is sent as an `error` event before the stream closes. With `guard`,
 * nothing is delivered after the caller's credential is found invalid (see the module comment).
 */
export function sseResponse(
  signal: AbortSignal,
  start: (send: (message: SseMessage) => void, close: () => void) => Promise<() => void> | (() => void),
  heartbeatMs = 15_000,
  guard?: StreamGuard,
  origin?: StreamOrigin,
): Response {
  const encoder = new TextEncoder();
  let cleanup: (() => void) | undefined;
  let unwatch: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stop = () => {
    closed = true;
    if (heartbeat) clearInterval(heartbeat);
    unwatch?.();
    cleanup?.();
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const close = () => {
        if (closed) return;
        stop();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const enqueue = (bytes: Uint8Array) => {
        if (!closed) controller.enqueue(bytes);
      };
      const recheck = guard ? guardedDelivery(guard, enqueue, close, () => closed, origin) : undefined;
      const send = (message: SseMessage) => {
        const bytes = encoder.encode(formatSse(message));
        if (recheck) recheck.deliver(bytes);
        else enqueue(bytes);
      };
      enqueue(encoder.encode(': connected\n\n'));
      heartbeat = setInterval(() => {
        enqueue(encoder.encode(': heartbeat\n\n'));
        recheck?.check(false);
      }, heartbeatMs);
      if (guard && recheck) unwatch = guard.watch(() => recheck.check(true));
      signal.addEventListener('abort', close, { once: true });
      // A client that left before the stream started would otherwise keep the heartbeat going.
      if (signal.aborted) close();
      try {
        const stopStart = await start(send, close);
        if (closed) stopStart();
        else cleanup = stopStart;
      } catch (error) {
        // The same safe code and message as an error response: no stack traces or SQL.
        const { code, message } = toAppError(error);
        send(streamError(origin, code, message));
        close();
      }
    },
    cancel() {
      if (!closed) stop();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}

/**
 * Delivery behind a guard. `check(true)` (a change was announced) holds what is sent until the
 * credential passed again; `check(false)` (a heartbeat) re-checks without holding. Checks never
 * overlap: a change announced during one runs another after it, so a held stream is released only
 * by a check that started after the last announcement. A check that throws holds what is sent
 * until a later one passes, so a database outage neither delivers unchecked events nor ends the stream.
 */
function guardedDelivery(
  guard: StreamGuard,
  enqueue: (bytes: Uint8Array) => void,
  close: () => void,
  isClosed: () => boolean,
  origin?: StreamOrigin,
) {
  const encoder = new TextEncoder();
  let held: Uint8Array[] | undefined;
  let running = false;
  let again = false;

  async function run(): Promise<void> {
    running = true;
    try {
      do {
        again = false;
        // A check that cannot answer (the database is away) is no refusal: what is sent is held
        // until a later check (the next heartbeat) passes, and nothing is released before.
        const ok = await guard.check().catch(() => undefined);
        if (isClosed()) return;
        if (ok === undefined) {
          held ??= [];
          return;
        }
        if (!ok) {
          held = undefined;
          enqueue(encoder.encode(formatSse(accessEnded(origin))));
          close();
          return;
        }
      } while (again);
      const release = held ?? [];
      held = undefined;
      for (const bytes of release) enqueue(bytes);
    } finally {
      running = false;
    }
  }

  return {
    deliver(bytes: Uint8Array): void {
      if (held) held.push(bytes);
      else enqueue(bytes);
    },
    check(hold: boolean): void {
      if (isClosed()) return;
      if (hold) held ??= [];
      if (running) {
        if (hold) again = true;
        return;
      }
      void run();
    },
  };
}
