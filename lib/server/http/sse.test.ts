import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from './errors';
import { formatSse } from '../../contract';
import {
  accessEnded,
  QUEUE_MARK,
  SLOW_CONSUMER_BYTES,
  slowConsumer,
  sseResponse,
  StreamEndedError,
  type SseMessage,
  type StreamReady,
} from './sse';
import { fakeGuard, reader } from './sse.test-support';

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('sseResponse', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the no-buffering headers with the event-stream content type', () => {
    const response = sseResponse(new AbortController().signal, () => () => {});
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
  });

  it('sends a heartbeat comment every interval, and only then', async () => {
    const body = reader(sseResponse(new AbortController().signal, () => () => {}, 1_000));
    expect(await body.received()).toBe(': connected\n\n');
    await vi.advanceTimersByTimeAsync(999);
    expect(count(await body.received(), ': heartbeat\n\n')).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(count(await body.received(), ': heartbeat\n\n')).toBe(1);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(count(await body.received(), ': heartbeat\n\n')).toBe(3);
    await body.cancel();
  });

  it('uses 15 s when no interval is given', async () => {
    const body = reader(sseResponse(new AbortController().signal, () => () => {}));
    await vi.advanceTimersByTimeAsync(14_999);
    expect(await body.received()).not.toContain('heartbeat');
    await vi.advanceTimersByTimeAsync(1);
    expect(await body.received()).toContain(': heartbeat\n\n');
    await body.cancel();
  });

  it('sends events with their id, and closes when start calls close', async () => {
    const cleanup = vi.fn();
    const response = sseResponse(new AbortController().signal, (send, close) => {
      send({ id: 7, event: 'text', data: { delta: 'a\nb' } });
      close();
      return cleanup;
    });
    expect(await reader(response).rest()).toBe(': connected\n\nid: 7\nevent: text\ndata: {"delta":"a\\nb"}\n\n');
    expect(cleanup).toHaveBeenCalledTimes(1);
  });

  it('the client going away (abort signal) ends the stream, runs the cleanup once and stops the heartbeat', async () => {
    const client = new AbortController();
    const cleanup = vi.fn();
    const body = reader(sseResponse(client.signal, () => cleanup, 1_000));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await body.received()).toContain(': heartbeat');
    client.abort();
    const all = await body.rest();
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(count(all, ': heartbeat')).toBe(1);
    expect(cleanup).toHaveBeenCalledTimes(1);
  });

  it('a client that left before the stream started gets no heartbeat, and the cleanup still runs', async () => {
    const client = new AbortController();
    client.abort();
    const cleanup = vi.fn();
    expect(await reader(sseResponse(client.signal, async () => cleanup, 1_000)).rest()).toBe(': connected\n\n');
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('cancelling the body (the reader side) runs the cleanup once', async () => {
    const cleanup = vi.fn();
    const body = reader(sseResponse(new AbortController().signal, () => cleanup, 1_000));
    await body.received();
    await body.cancel();
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an error thrown in start becomes an error event with a safe message, then the stream ends', async () => {
    const failing = sseResponse(
      new AbortController().signal,
      async () => {
        throw new AppError('not_found:run', 404, 'No such run');
      },
      undefined,
      undefined,
      { runId: 'r1' },
    );
    // An event of the run like any other (type, runId, agentId, parents), without a seq: it is not in the log.
    const error = {
      type: 'error',
      runId: 'r1',
      agentId: 'main',
      parents: [],
      code: 'not_found:run',
      message: 'No such run',
    };
    expect(await reader(failing).rest()).toBe(`: connected\n\n${formatSse({ event: 'error', data: error })}`);

    const internal = sseResponse(new AbortController().signal, () => {
      throw new Error('relation "runs" does not exist at character 15');
    });
    const text = await reader(internal).rest();
    expect(text).toContain('"code":"internal","message":"Something went wrong on the server"}');
    expect(text).not.toContain('relation');
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('sseResponse with a guard: a stream lives only as long as its credential', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const event = (id: number): SseMessage => ({ id, event: 'text', data: { n: id } });
  const ended = formatSse(accessEnded());

  function guarded() {
    const fake = fakeGuard();
    let send!: (message: SseMessage) => void;
    const cleanup = vi.fn();
    const body = reader(
      sseResponse(
        new AbortController().signal,
        (s) => {
          send = s;
          return cleanup;
        },
        1_000,
        fake.guard,
      ),
    );
    return { fake, body, cleanup, send: (message: SseMessage) => send(message) };
  }

  it('re-checks the credential at every heartbeat; a refusal ends the stream with an error event', async () => {
    const { fake, body, cleanup, send } = guarded();
    await body.received();
    send(event(1));
    expect(fake.pending()).toBe(0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fake.pending()).toBe(1);
    await fake.answer(true);
    send(event(2));
    await vi.advanceTimersByTimeAsync(1_000);
    await fake.answer(false);
    send(event(3));
    const all = await body.rest();
    expect(all).toContain(formatSse(event(2)));
    expect(all).not.toContain(formatSse(event(3)));
    expect(all.endsWith(ended)).toBe(true);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(fake.watching()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('after an announced change, events wait for the re-check: delivered when it passes', async () => {
    const { fake, body, send } = guarded();
    await body.received();
    fake.announce();
    send(event(1));
    expect(await body.received()).not.toContain('data:');
    await fake.answer(true);
    expect(await body.received()).toContain(formatSse(event(1)));
    send(event(2));
    expect(await body.received()).toContain(formatSse(event(2)));
    await body.cancel();
  });

  it('after an announced change, held events are never delivered when the re-check fails', async () => {
    const { fake, body, send } = guarded();
    await body.received();
    fake.announce();
    send(event(1));
    await fake.answer(false);
    const all = await body.rest();
    expect(all).not.toContain(formatSse(event(1)));
    expect(all.endsWith(ended)).toBe(true);
  });

  it('a check that throws (database away) holds events until a later check: released when it passes, dropped when it fails', async () => {
    for (const later of [true, false]) {
      const { fake, body, send } = guarded();
      await body.received();
      await vi.advanceTimersByTimeAsync(1_000);
      await fake.answer(new Error('database unreachable'));
      send(event(1));
      expect(await body.received()).not.toContain('data:');
      await vi.advanceTimersByTimeAsync(1_000);
      await fake.answer(later);
      if (later) {
        expect(await body.received()).toContain(formatSse(event(1)));
        await body.cancel();
      } else {
        const all = await body.rest();
        expect(all).not.toContain(formatSse(event(1)));
        expect(all.endsWith(ended)).toBe(true);
      }
    }
  });

  it('a change announced during a check is checked again before anything held is released', async () => {
    const { fake, body, send } = guarded();
    await body.received();
    fake.announce();
    send(event(1));
    fake.announce(); // while the first check runs
    await fake.answer(true);
    expect(await body.received()).not.toContain('data:');
    expect(fake.pending()).toBe(1);
    await fake.answer(false);
    const all = await body.rest();
    expect(all).not.toContain('data: {"n":1}');
    expect(all.endsWith(ended)).toBe(true);
  });

  it('stops watching when the client goes away', async () => {
    const { fake, body } = guarded();
    await body.received();
    expect(fake.watching()).toBe(1);
    await body.cancel();
    expect(fake.watching()).toBe(0);
  });
});

describe('sseResponse backpressure: a writer waits for its reader, a client that does not read is dropped', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A stream whose `send`, `close` and `ready` the test holds. */
  function held() {
    let send!: (message: SseMessage) => void;
    let close!: () => void;
    let ready!: StreamReady;
    const cleanup = vi.fn();
    const client = new AbortController();
    const body = reader(
      sseResponse(
        client.signal,
        (s, c, r) => {
          [send, close, ready] = [s, c, r];
          return cleanup;
        },
        60_000,
        undefined,
        { runId: 'r1' },
      ),
    );
    return { body, cleanup, client, send: (m: SseMessage) => send(m), close: () => close(), ready: () => ready() };
  }
  /** An event whose data is about `bytes` long. */
  const big = (id: number, bytes: number): SseMessage => ({
    id,
    event: 'text',
    data: { n: id, pad: 'x'.repeat(bytes) },
  });
  const ids = (text: string) => [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));

  it('ready is undefined while the reader keeps up, and resolves only once the reader has read what waits', async () => {
    const { body, send, ready } = held();
    await Promise.resolve();
    expect(ready()).toBeUndefined();
    send(big(1, QUEUE_MARK));
    send(big(2, QUEUE_MARK));
    const waiting = ready();
    expect(waiting).toBeInstanceOf(Promise);
    let caughtUp = false;
    void waiting!.then(() => (caughtUp = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(caughtUp).toBe(false);
    expect(ids(await body.received())).toEqual([1, 2]);
    await waiting;
    expect(ready()).toBeUndefined();
    await body.cancel();
  });

  it('what was sent before close is delivered before the end, the waiting part too', async () => {
    const { body, send, close, cleanup } = held();
    for (let id = 1; id <= 5; id++) send(big(id, QUEUE_MARK));
    close();
    const all = await body.rest();
    expect(ids(all)).toEqual([1, 2, 3, 4, 5]);
    expect(all).not.toContain('slow_consumer');
    expect(cleanup).toHaveBeenCalledTimes(1);
  });

  it('a client that leaves unread more than SLOW_CONSUMER_BYTES is dropped with a slow_consumer error, without what waited', async () => {
    const { body, send, ready, cleanup } = held();
    const size = 1024 * 1024;
    const sent = Math.ceil(SLOW_CONSUMER_BYTES / size) + 2;
    for (let id = 1; id <= sent; id++) send(big(id, size));
    await expect(ready()).rejects.toBeInstanceOf(StreamEndedError);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    const all = await body.rest();
    // What the response's queue took is delivered, in order; the rest is dropped, not held.
    const got = ids(all);
    expect(got).toEqual(got.map((_, i) => i + 1));
    expect(got.length).toBeLessThan(3);
    expect(all.endsWith(formatSse(slowConsumer({ runId: 'r1' })))).toBe(true);
  });

  it('a writer waiting for its reader is told when the client leaves (ready rejects)', async () => {
    const { client, send, ready, cleanup } = held();
    send(big(1, QUEUE_MARK));
    send(big(2, QUEUE_MARK));
    const waiting = ready();
    client.abort();
    await expect(waiting).rejects.toBeInstanceOf(StreamEndedError);
    await expect(ready()).rejects.toBeInstanceOf(StreamEndedError);
    expect(cleanup).toHaveBeenCalledTimes(1);
  });

  it('heartbeats still reach a reader that catches up, after what waited, in order', async () => {
    const { body, send, ready } = held();
    send(big(1, QUEUE_MARK));
    send(big(2, QUEUE_MARK));
    const waiting = ready();
    await vi.advanceTimersByTimeAsync(60_000);
    send(big(3, 10));
    const text = await body.received();
    await waiting;
    expect(ids(text)).toEqual([1, 2, 3]);
    expect(text.indexOf(': heartbeat')).toBeGreaterThan(text.indexOf('id: 2'));
    expect(text.indexOf(': heartbeat')).toBeLessThan(text.indexOf('id: 3'));
    await body.cancel();
  });
});
