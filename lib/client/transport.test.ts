// The seed transports against a scripted fetch: what they send, how they read the SSE stream
// (split anywhere, heartbeats, CRLF), when they stop, and how a refusal surfaces.
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { createHTTPTransport, createSSETransport, type ServerEvent } from './transport';

interface Sent {
  url: string;
  init: RequestInit;
}

function scriptedFetch(respond: (sent: Sent) => Response) {
  const sent: Sent[] = [];
  const fetch = (async (url: string | URL | Request, init: RequestInit = {}) => {
    const call = { url: String(url), init };
    sent.push(call);
    return respond(call);
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

/**
 * A body that delivers `chunks` one read at a time, then ends, or (`open`) stays open as a live
 * SSE stream does; records whether the reader cancelled it.
 */
function chunkedBody(chunks: string[], { open = false } = {}) {
  const state = { cancelled: false, pulled: 0 };
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulled++];
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (open) return new Promise<void>(() => undefined);
      else controller.close();
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

const sse = (event: string, data: object, id?: number) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const base = { runId: 'r1', agentId: 'main', parents: [] };
const STREAM = [
  sse('connected', { type: 'connected', sessionId: 's1', runId: 'r1' }),
  ': heartbeat\n\n',
  sse('tool_call', { ...base, type: 'tool_call', toolCallId: 'c1', name: 'bash', params: { command: 'ls' } }, 1),
  sse(
    'relay',
    {
      ...base,
      type: 'relay',
      kind: 'permission',
      id: 'rel1',
      sessionId: 's1',
      toolCallId: 'c1',
      tool: 'bash',
      params: { command: 'ls' },
      prompt: 'Run?',
    },
    2,
  ),
  sse('text', { ...base, type: 'text', content: 'bash: a.txt' }, 3),
  sse('done', { ...base, type: 'done', finishReason: 'stop', text: 'bash: a.txt' }, 4),
].join('');

async function collect(events: AsyncIterable<ServerEvent>): Promise<ServerEvent[]> {
  const all: ServerEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('createSSETransport', () => {
  it('posts the seed request to <baseUrl>/chat and yields every event, connected first, until done', async () => {
    const { body } = chunkedBody([STREAM]);
    const { fetch, sent } = scriptedFetch(
      () => new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    );
    const request = {
      model: 'offline',
      messages: [{ role: 'user' as const, content: 'Deploy to staging' }],
      permissions: { allowlist: [] },
    };
    const events = await collect(createSSETransport({ baseUrl: '/api/', fetch }).stream(request));

    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/api/chat');
    expect(sent[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual(request);
    expect(events.map((e) => e.type)).toEqual(['connected', 'tool_call', 'relay', 'text', 'done']);
    expect(events[0]).toEqual({ type: 'connected', sessionId: 's1', runId: 'r1' });
    expect(events[2]).toMatchObject({ type: 'relay', id: 'rel1', tool: 'bash', params: { command: 'ls' } });
  });

  it('reads events split at any byte, and CRLF line ends, the same as whole ones', async () => {
    const crlf = STREAM.replaceAll('\n', '\r\n');
    const whole = await collect(
      createSSETransport({
        baseUrl: '/api',
        fetch: scriptedFetch(() => new Response(chunkedBody([STREAM]).body)).fetch,
      }).stream({ messages: [] }),
    );
    for (const text of [STREAM, crlf]) {
      const pieces = Array.from(text, (ch) => ch); // one character per read
      const { fetch } = scriptedFetch(() => new Response(chunkedBody(pieces).body));
      expect(await collect(createSSETransport({ baseUrl: '/api', fetch }).stream({ messages: [] }))).toEqual(whole);
    }
  });

  it('a multi-byte character split between reads arrives whole', async () => {
    const bytes = new TextEncoder().encode(sse('text', { ...base, type: 'text', content: 'héllo ✅' }));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events = await collect(
      createSSETransport({ baseUrl: '/api', fetch: scriptedFetch(() => new Response(body)).fetch }).stream({
        messages: [],
      }),
    );
    expect(events).toEqual([{ ...base, type: 'text', content: 'héllo ✅' }]);
  });

  it('stops reading at done, and closes the response when the consumer stops early', async () => {
    const afterDone = chunkedBody([STREAM, sse('text', { ...base, type: 'text', content: 'never' })], { open: true });
    const events = await collect(
      createSSETransport({ baseUrl: '/api', fetch: scriptedFetch(() => new Response(afterDone.body)).fetch }).stream({
        messages: [],
      }),
    );
    expect(events.at(-1)?.type).toBe('done');
    expect(afterDone.state.cancelled).toBe(true);

    const early = chunkedBody([STREAM], { open: true });
    for await (const event of createSSETransport({
      baseUrl: '/api',
      fetch: scriptedFetch(() => new Response(early.body)).fetch,
    }).stream({ messages: [] })) {
      if (event.type === 'connected') break;
    }
    expect(early.state.cancelled).toBe(true);
  });

  it('sends the given headers (an API token outside a browser) and the caller’s signal', async () => {
    const { fetch, sent } = scriptedFetch(() => new Response(chunkedBody([STREAM]).body));
    const signal = new AbortController().signal;
    await collect(
      createSSETransport({ baseUrl: 'http://h:1/api', fetch, headers: { Authorization: 'Bearer t' } }).stream(
        { messages: [] },
        { signal },
      ),
    );
    expect(sent[0]!.url).toBe('http://h:1/api/chat');
    expect(sent[0]!.init.headers).toMatchObject({ Authorization: 'Bearer t', 'Content-Type': 'application/json' });
    expect(sent[0]!.init.signal).toBe(signal);
  });

  it('a refused request throws ApiError with the server’s code and field errors, before any event', async () => {
    const error = {
      error: {
        code: 'invalid_request',
        message: 'Invalid request',
        fields: [{ path: 'messages', message: 'send at least one message' }],
      },
    };
    const { fetch } = scriptedFetch(() => Response.json(error, { status: 400 }));
    const failure = await collect(createSSETransport({ baseUrl: '/api', fetch }).stream({ messages: [] })).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 400, code: 'invalid_request' });
    expect((failure as ApiError).fieldMessage('messages')).toBe('send at least one message');
  });
});

describe('createHTTPTransport', () => {
  it('resolveRelay posts { sessionId, response } to <baseUrl>/chat/relay/:id and returns { success: true }', async () => {
    const { fetch, sent } = scriptedFetch(() => Response.json({ success: true }));
    const result = await createHTTPTransport({ baseUrl: '/api', fetch }).resolveRelay('s1', 'rel/1', {
      approved: false,
      reason: 'User denied',
    });
    expect(result).toEqual({ success: true });
    expect(sent[0]!.url).toBe('/api/chat/relay/rel%2F1');
    expect(sent[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(sent[0]!.init.body))).toEqual({
      sessionId: 's1',
      response: { approved: false, reason: 'User denied' },
    });
  });

  it('a refused decision throws ApiError (e.g. 409 when the relay was already decided)', async () => {
    const { fetch } = scriptedFetch(() =>
      Response.json({ error: { code: 'conflict:relay', message: 'Relay already resolved' } }, { status: 409 }),
    );
    await expect(
      createHTTPTransport({ baseUrl: '/api', fetch }).resolveRelay('s1', 'r', { approved: true }),
    ).rejects.toMatchObject({ status: 409, code: 'conflict:relay' });
  });

  it('a non-JSON error page still becomes an ApiError, not a parse failure', async () => {
    const { fetch } = scriptedFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(
      createHTTPTransport({ baseUrl: '/api', fetch }).resolveRelay('s1', 'r', { approved: true }),
    ).rejects.toMatchObject({ status: 502, code: 'bad_response' });
  });
});
