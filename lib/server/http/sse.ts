// Server-sent events done right: no buffering anywhere on the way, a heartbeat comment every 15 s
// (GATEHOUSE_SSE_HEARTBEAT_MS) so proxies keep an idle stream open, each event with its sequence
// number as the SSE id, and the client's disconnect stops the stream (never the run).
// With a guard, the stream lives only as long as its caller's credential: it is re-checked on every
// heartbeat, and at once when the caller's credentials may have changed (a sign-out, a disable, a
// revoked token, on this instance or announced by another); events that arrive meanwhile wait for
// the answer, and a refused credential ends the stream with an `error` event.
// Backpressure: the response's own queue holds about QUEUE_MARK bytes; the rest waits in a backlog,
// `ready` tells a writer (the log's replay) when the reader has caught up, and a client that lets
// SLOW_CONSUMER_BYTES pile up unread is dropped with a `slow_consumer` error (it resumes with
// Last-Event-ID and loses nothing: the log is in the database).
// With a slot (stream-slots.ts: the caller's place in the count of open streams), the slot is
// released exactly once when the stream ends, however it ends, or when the stream cannot be built.
import { formatSse, type ErrorEvent, type SseMessage } from '../../contract';

export type { SseMessage };
import { toAppError } from './errors';
import type { StreamSlot } from './stream-slots';

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

/** The event that ends a stream whose client let too much pile up unread. */
export const slowConsumer = (origin?: StreamOrigin) =>
  streamError(origin, 'slow_consumer', 'The stream ended: the client is not reading; resume after the last event id');

/** Bytes the response's own queue takes before the rest waits in the stream's backlog. */
export const QUEUE_MARK = 64 * 1024;
/** Bytes a client may leave unread in the backlog before the stream drops it. */
export const SLOW_CONSUMER_BYTES = 8 * 1024 * 1024;

/** `ready` on a stream that has ended: whoever waited on it (the log's replay) stops. */
export class StreamEndedError extends Error {
  constructor() {
    super('The stream has ended');
    this.name = 'StreamEndedError';
  }
}

/**
 * Whether the reader keeps up: undefined when it does, else a promise that resolves once it has
 * read the backlog (and nothing is held for a credential check), or rejects with StreamEndedError
 * if the stream ends first (at once on an ended stream).
 */
export type StreamReady = () => Promise<void> | undefined;

/**
 * A streaming response. `start` gets `send`, `close` and `ready` and returns a cleanup; the stream
 * ends when `close` is called or the client goes away (`signal`), and the cleanup runs exactly once.
 * What is sent before `close` is delivered before the end. An error thrown by `start` is sent as an
 * `error` event before the stream closes. With `guard`, nothing is delivered after the caller's
 * credential is found invalid (see the module comment). `slot` is the response's from the call on:
 * released when the stream ends, or before this throws.
 */
export function sseResponse(
  signal: AbortSignal,
  start: (
    send: (message: SseMessage) => void,
    close: () => void,
    ready: StreamReady,
  ) => Promise<() => void> | (() => void),
  heartbeatMs = 15_000,
  guard?: StreamGuard,
  origin?: StreamOrigin,
  slot?: StreamSlot,
): Response {
  const encoder = new TextEncoder();
  let cleanup: (() => void) | undefined;
  let unwatch: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  // What the response's queue had no room for, in order; whole messages only.
  let backlog: Uint8Array[] = [];
  let backlogBytes = 0;
  let waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  let recheck: ReturnType<typeof guardedDelivery> | undefined;
  const behind = () => backlog.length > 0 || recheck?.holding() === true;
  const settleWaiters = (error?: Error) => {
    const settled = waiters;
    waiters = [];
    for (const waiter of settled) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  };
  const stop = () => {
    closed = true;
    if (heartbeat) clearInterval(heartbeat);
    unwatch?.();
    slot?.release();
    cleanup?.();
    settleWaiters(new StreamEndedError());
  };
  let flush = () => {};
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // Hands the backlog to the response's queue while it has room; wakes the writers once it is empty.
        // `enqueue` may call `pull` (so this) at once: a nested call has nothing to do.
        let flushing = false;
        flush = () => {
          if (flushing) return;
          flushing = true;
          let taken = 0;
          try {
            while (!closed && taken < backlog.length && (controller.desiredSize ?? 0) > 0) {
              const bytes = backlog[taken++]!;
              backlogBytes -= bytes.byteLength;
              controller.enqueue(bytes);
            }
          } finally {
            backlog.splice(0, taken);
            flushing = false;
          }
          if (!closed && !behind()) settleWaiters();
        };
        const end = (last?: Uint8Array) => {
          const rest = backlog;
          backlog = [];
          backlogBytes = 0;
          stop();
          try {
            for (const bytes of rest) controller.enqueue(bytes);
            if (last) controller.enqueue(last);
            controller.close();
          } catch {
            // already closed by the client
          }
        };
        const close = () => {
          if (!closed) end();
        };
        const enqueue = (bytes: Uint8Array) => {
          if (closed) return;
          backlog.push(bytes);
          backlogBytes += bytes.byteLength;
          flush();
          if (backlogBytes <= SLOW_CONSUMER_BYTES) return;
          // The backlog is dropped, not delivered: the client resumes after the last id it read.
          backlog = [];
          backlogBytes = 0;
          end(encoder.encode(formatSse(slowConsumer(origin))));
        };
        recheck = guard ? guardedDelivery(guard, enqueue, close, () => closed, flush, origin) : undefined;
        const send = (message: SseMessage) => {
          const bytes = encoder.encode(formatSse(message));
          if (recheck) recheck.deliver(bytes);
          else enqueue(bytes);
        };
        const ready: StreamReady = () => {
          if (closed) return Promise.reject(new StreamEndedError());
          if (!behind()) return undefined;
          return new Promise<void>((resolve, reject) => waiters.push({ resolve, reject }));
        };
        enqueue(encoder.encode(': connected\n\n'));
        heartbeat = setInterval(() => {
          enqueue(encoder.encode(': heartbeat\n\n'));
          recheck?.check(false);
        }, heartbeatMs);
        try {
          if (guard && recheck) unwatch = guard.watch(() => recheck?.check(true));
        } catch (error) {
          // The constructor throws this, so no close or cancel will ever come: end the stream here
          // (its heartbeat, its slot) before the error becomes the route's error response.
          stop();
          throw error;
        }
        // A client that left reads nothing more: what waits for it is dropped.
        const leave = () => {
          backlog = [];
          backlogBytes = 0;
          close();
        };
        signal.addEventListener('abort', leave, { once: true });
        // A client that left before the stream started would otherwise keep the heartbeat going.
        if (signal.aborted) leave();
        // Not awaited: the stream must be started for its reads to pull the backlog while `start` runs.
        void (async () => {
          try {
            const stopStart = await start(send, close, ready);
            if (closed) stopStart();
            else cleanup = stopStart;
          } catch (error) {
            if (closed) return;
            // The same safe code and message as an error response: no stack traces or SQL.
            const { code, message } = toAppError(error);
            send(streamError(origin, code, message));
            close();
          }
        })();
      },
      pull() {
        flush();
      },
      cancel() {
        if (!closed) {
          backlog = [];
          backlogBytes = 0;
          stop();
        }
      },
    },
    { highWaterMark: QUEUE_MARK, size: (chunk) => chunk.byteLength },
  );
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
  released: () => void,
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
      released();
    } finally {
      running = false;
    }
  }

  return {
    /** Whether what is sent is being held for a check. */
    holding: () => held !== undefined,
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
