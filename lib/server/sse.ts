// Server-sent events done right: no buffering anywhere on the way, a heartbeat comment every 15 s
// (GATEHOUSE_SSE_HEARTBEAT_MS) so proxies keep an idle stream open, each event with its sequence
// number as the SSE id, and the client's disconnect stops the stream (never the run).
import { toAppError } from './errors';

export interface SseMessage {
  id?: number;
  event: string;
  data: unknown;
}

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
  Connection: 'keep-alive',
} as const;

export function formatSse(message: SseMessage): string {
  const lines = [`event: ${message.event}`];
  if (message.id !== undefined) lines.unshift(`id: ${message.id}`);
  for (const line of JSON.stringify(message.data).split('\n')) lines.push(`data: ${line}`);
  return `${lines.join('\n')}\n\n`;
}

/**
 * A streaming response. `start` gets `send` and `close` and returns a cleanup; the stream ends
 * when `close` is called or the client goes away (`signal`), and the cleanup runs exactly once.
 * An error thrown by `start` is sent as an `error` event before the stream closes.
 */
export function sseResponse(
  signal: AbortSignal,
  start: (send: (message: SseMessage) => void, close: () => void) => Promise<() => void> | (() => void),
  heartbeatMs = 15_000,
): Response {
  const encoder = new TextEncoder();
  let cleanup: (() => void) | undefined;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const close = () => {
        if (closed) return;
        closed = true;
        if (heartbeat) clearInterval(heartbeat);
        cleanup?.();
        try {
          controller.close();
        } catch {
          // already closed by the client
        }
      };
      const send = (message: SseMessage) => {
        if (!closed) controller.enqueue(encoder.encode(formatSse(message)));
      };
      controller.enqueue(encoder.encode(': connected\n\n'));
      heartbeat = setInterval(() => !closed && controller.enqueue(encoder.encode(': heartbeat\n\n')), heartbeatMs);
      signal.addEventListener('abort', close, { once: true });
      // A client that left before the stream started would otherwise keep the heartbeat going.
      if (signal.aborted) close();
      try {
        const stop = await start(send, close);
        if (closed) stop();
        else cleanup = stop;
      } catch (error) {
        // The same safe code and message as an error response: no stack traces or SQL.
        const { code, message } = toAppError(error);
        send({ event: 'error', data: { code, message } });
        close();
      }
    },
    cancel() {
      if (closed) return;
      closed = true;
      if (heartbeat) clearInterval(heartbeat);
      cleanup?.();
    },
  });
  return new Response(stream, { headers: SSE_HEADERS });
}
