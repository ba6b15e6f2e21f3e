// The seed design's client transports: `createSSETransport` streams a chat (POST /chat) as an async
// iterable of server events, `createHTTPTransport` answers a relay (POST /chat/relay/:id). Plain
// fetch, no React, so a browser page and a Node script use them alike. In a browser the session
// cookie and the same-origin Origin header go along by themselves; elsewhere pass `headers`
// (an API token). A non-2xx answer throws ApiError with the server's code and field errors.
import { toApiError } from './api';
import { parseSseBlock } from '../contract';
import type { ChatRequest, RelayResponse, ServerEvent } from '../contract';

export type { RelayResponse, ServerEvent } from '../contract';

/** The body of POST /api/chat (the contract's ChatRequest). */
export type ChatStreamRequest = ChatRequest;

export interface TransportOptions {
  /** Where the API lives: `/api` on Gatehouse's own pages, `http://host:3000/api` elsewhere. */
  baseUrl: string;
  /** Extra headers for every request, e.g. `{ Authorization: 'Bearer gh_...' }` outside a browser. */
  headers?: Record<string, string>;
  /** Default: the global fetch. */
  fetch?: typeof globalThis.fetch;
}

export interface SSETransport {
  /**
   * Starts a run and yields its events, `connected` first, until `done` or the server closes the
   * stream. Breaking out of the loop (or aborting `signal`) closes the stream; the run goes on.
   */
  stream(request: ChatStreamRequest, options?: { signal?: AbortSignal }): AsyncIterable<ServerEvent>;
}

export interface HTTPTransport {
  resolveRelay(sessionId: string, relayId: string, response: RelayResponse): Promise<{ success: true }>;
}

function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}

async function failure(response: Response): Promise<Error> {
  const text = await response.text().catch(() => '');
  let body: Record<string, unknown>;
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = { error: { code: 'bad_response', message: text.slice(0, 200) } };
  }
  return toApiError(response.status, body);
}

/** The blocks of an SSE body, one parsed event each (heartbeat comments skipped). */
async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      // Normalised on the whole buffer: a CRLF may arrive split between two reads.
      buffer = (buffer + decoder.decode(value, { stream: !done })).replace(/\r\n/g, '\n');
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const parsed = parseSseBlock(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
        if (parsed) yield { ...parsed.data, type: parsed.data.type ?? parsed.event };
      }
      if (done) return;
    }
  } finally {
    // Leaving early (break, abort, error) must not leave the response open.
    await reader.cancel().catch(() => undefined);
  }
}

export function createSSETransport(options: TransportOptions): SSETransport {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    async *stream(request, { signal } = {}) {
      const response = await fetcher(endpoint(options.baseUrl, '/chat'), {
        method: 'POST',
        headers: { ...options.headers, 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify(request),
        signal,
      });
      if (!response.ok) throw await failure(response);
      if (!response.body) return;
      for await (const event of sseEvents(response.body)) {
        yield event as ServerEvent;
        if (event.type === 'done') return;
      }
    },
  };
}

export function createHTTPTransport(options: TransportOptions): HTTPTransport {
  const fetcher = options.fetch ?? globalThis.fetch.bind(globalThis);
  return {
    async resolveRelay(sessionId, relayId, response) {
      const answer = await fetcher(endpoint(options.baseUrl, `/chat/relay/${encodeURIComponent(relayId)}`), {
        method: 'POST',
        headers: { ...options.headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sessionId, response }),
      });
      if (!answer.ok) throw await failure(answer);
      return (await answer.json()) as { success: true };
    },
  };
}
