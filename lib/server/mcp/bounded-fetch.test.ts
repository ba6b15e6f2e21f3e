// boundedFetch: an answer's body is read up to the cap (a JSON answer whole, an SSE stream per
// event), fails past it with a clear error (and says so to its owner), and leaves no listener
// behind on the transport's long-lived abort signal.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { boundedFetch } from './bounded-fetch';

const encoder = new TextEncoder();

/** A fetch answering with these chunks, as the content type given. */
const answering =
  (contentType: string, chunks: string[], seen: AbortSignal[] = []) =>
  async (_url: string | URL, init?: RequestInit) => {
    if (init?.signal) seen.push(init.signal);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': contentType } });
  };

describe('boundedFetch', () => {
  it('a JSON answer within the cap is read as sent', async () => {
    const fetch = boundedFetch({ limit: 10, fetch: answering('application/json', ['{"a":', '1}']) });
    expect(await (await fetch('http://x/')).json()).toEqual({ a: 1 });
  });

  it('a JSON answer past the cap fails its reader, names the cap, and tells the owner once', async () => {
    const told: Error[] = [];
    const fetch = boundedFetch({
      limit: 10,
      onTooLarge: (error) => told.push(error),
      fetch: answering('application/json', ['{"a":"12345', '67890"}']),
    });
    await expect((await fetch('http://x/')).text()).rejects.toThrow(/larger than 10 bytes: not read/);
    expect(told).toHaveLength(1);
  });

  it('an SSE stream is bounded per event: many small events pass, one large event fails', async () => {
    const events = Array.from({ length: 20 }, (_, i) => `data: ${i}\r\n\r\n`);
    const small = boundedFetch({ limit: 12, fetch: answering('text/event-stream', events) });
    expect(await (await small('http://x/')).text()).toBe(events.join(''));
    // One event split over chunks, with single-line breaks inside (not an event's end).
    const large = boundedFetch({
      limit: 12,
      fetch: answering('text/event-stream', ['data: 1\n\n', 'data: 12345\ndata: ', '67890\n\n']),
    });
    await expect((await large('http://x/')).text()).rejects.toThrow(/larger than 12 bytes/);
  });

  it("leaves no abort listener on the caller's signal once each body is read, and forwards an abort", async () => {
    const transport = new AbortController();
    const seen: AbortSignal[] = [];
    const fetch = boundedFetch({ fetch: answering('application/json', ['{}'], seen) });
    for (let i = 0; i < 50; i++) await (await fetch('http://x/', { signal: transport.signal })).json();
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(0);
    // A request still being answered is aborted with the transport (its own signal follows).
    const open = await fetch('http://x/', { signal: transport.signal });
    expect(getEventListeners(transport.signal, 'abort')).toHaveLength(1);
    transport.abort(new Error('closed'));
    expect(seen.at(-1)!.aborted).toBe(true);
    await open.body?.cancel();
  });
});
