// Reading a run's events over fetch: the POST /api/chat response first, then, after any drop,
// GET /api/runs/:id/events with Last-Event-ID (the last sequence applied), until `done`, the
// run is over, or the caller aborts. EventSource is not used: it cannot POST, and fetch lets
// us set Last-Event-ID ourselves.
import { toApiError } from '../api';
import { parseSseBlock, type ParsedSseEvent } from '../../contract';
import type { LoggedEvent } from '@/lib/contract';
import { toLoggedEvent } from './types';

export interface StreamCallbacks {
  onEvent(event: LoggedEvent): void;
  /** The stream dropped and will be re-opened (for a "reconnecting" hint). */
  onReconnecting?(attempt: number): void;
  /** After a drop: is the run still worth following? (false when it has finished). */
  stillLive?(runId: string): Promise<boolean>;
  /** POST /api/chat only: the run's ids, before any of its events. */
  onConnected?(ids: { runId: string; sessionId: string }): void;
}

/** Reads SSE blocks from a response body until it ends; returns whether `done` was seen. */
export async function readEvents(
  response: Response,
  onEvent: (event: ParsedSseEvent) => void,
  signal?: AbortSignal,
): Promise<boolean> {
  if (!response.body) return false;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const abort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', abort, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return false;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = parseSseBlock(block);
        if (!event) continue;
        onEvent(event);
        if (event.event === 'done') return true;
      }
    }
  } finally {
    signal?.removeEventListener('abort', abort);
  }
}

export interface ChatRequest {
  messages: Array<{ role: 'user' | 'assistant'; content: string }>;
  sessionId?: string;
  mode?: string;
  agent?: string;
}

/**
 * Starts a run and resolves with its ids as soon as the server confirms; events keep flowing to
 * `callbacks`, and `finished` settles when the run's stream is over (or rejects if it cannot be followed).
 */
export async function startChat(
  body: ChatRequest,
  callbacks: StreamCallbacks,
  signal: AbortSignal,
): Promise<{ runId: string; sessionId: string; finished: Promise<void> }> {
  const response = await fetch('/api/chat', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify(body),
    signal,
  });
  if (!response.ok) throw toApiError(response.status, await response.json().catch(() => ({})));
  let resolveIds!: (ids: { runId: string; sessionId: string }) => void;
  let rejectIds!: (error: Error) => void;
  const ids = new Promise<{ runId: string; sessionId: string }>((res, rej) => ((resolveIds = res), (rejectIds = rej)));
  let runId: string | undefined;
  let lastSeq = 0;
  const onEvent = (event: ParsedSseEvent) => {
    if (event.event === 'connected') {
      runId = String(event.data.runId);
      const started = { runId, sessionId: String(event.data.sessionId) };
      callbacks.onConnected?.(started);
      resolveIds(started);
      return;
    }
    if (!runId || event.id === undefined) return;
    lastSeq = Math.max(lastSeq, event.id);
    const runEvent = toLoggedEvent(runId, event.id, event.event, event.data);
    if (runEvent) callbacks.onEvent(runEvent);
  };
  const finished = (async () => {
    let done = false;
    try {
      done = await readEvents(response, onEvent, signal);
    } catch (error) {
      if (signal.aborted) return;
      if (!runId) throw error;
    }
    if (!runId) throw new Error('The server closed the stream before the run started');
    if (!done && !signal.aborted) await followRun(runId, lastSeq, callbacks, signal);
  })();
  finished.catch((error: Error) => rejectIds(error));
  const started = await ids;
  return { ...started, finished };
}

const FINAL_STATUSES = new Set([401, 403, 404]);

/** Follows a run's event log after `afterSeq`, reconnecting with Last-Event-ID after each drop. */
export async function followRun(
  runId: string,
  afterSeq: number,
  callbacks: StreamCallbacks,
  signal: AbortSignal,
): Promise<void> {
  let lastSeq = afterSeq;
  for (let attempt = 0; !signal.aborted; attempt++) {
    if (attempt > 0) {
      if (callbacks.stillLive && !(await callbacks.stillLive(runId).catch(() => true))) return;
      callbacks.onReconnecting?.(attempt);
      await delay(Math.min(5_000, 250 * 2 ** Math.min(attempt, 5)), signal);
      if (signal.aborted) return;
    }
    try {
      const response = await fetch(`/api/runs/${encodeURIComponent(runId)}/events`, {
        headers: { Accept: 'text/event-stream', 'Last-Event-ID': String(lastSeq) },
        signal,
      });
      // Gone, signed out, or no longer allowed: asking again cannot help.
      if (FINAL_STATUSES.has(response.status))
        throw toApiError(response.status, await response.json().catch(() => ({})));
      if (!response.ok) continue;
      const done = await readEvents(
        response,
        (event) => {
          if (event.id === undefined) return;
          lastSeq = Math.max(lastSeq, event.id);
          const runEvent = toLoggedEvent(runId, event.id, event.event, event.data);
          if (runEvent) callbacks.onEvent(runEvent);
        },
        signal,
      );
      if (done) return;
    } catch (error) {
      if (signal.aborted) return;
      if (FINAL_STATUSES.has((error as { status?: number }).status ?? 0)) throw error;
    }
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
