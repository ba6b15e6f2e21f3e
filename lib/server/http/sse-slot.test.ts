// sseResponse and the count of open streams (stream-slots.ts): a stream's slot is given back
// exactly once, whichever way the stream ends, so no user is locked out by streams long gone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatSse } from '../../contract';
import { AppError } from './errors';
import { accessEnded, SLOW_CONSUMER_BYTES, slowConsumer, sseResponse, type SseMessage, type StreamGuard } from './sse';
import { fakeGuard, reader } from './sse.test-support';
import { StreamSlots } from './stream-slots';

describe('sseResponse with a slot: given back exactly once, however the stream ends', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  type Start = Parameters<typeof sseResponse>[1];
  /** A stream of user `u` holding one of their slots, as a route opens it. */
  function open(
    slots: StreamSlots,
    start: Start = () => () => {},
    guard?: StreamGuard,
    client = new AbortController(),
  ) {
    const slot = slots.take('u', 8);
    const body = reader(sseResponse(client.signal, start, 1_000, guard, { runId: 'r1' }, slot));
    return { client, body };
  }

  const ends: [
    string,
    (slots: StreamSlots) => Promise<{ client: AbortController; body: ReturnType<typeof reader> }>,
  ][] = [
    [
      'the client going away (abort signal)',
      async (slots) => {
        const stream = open(slots);
        await stream.body.received();
        expect(slots.heldBy('u')).toBe(2);
        stream.client.abort();
        await stream.body.rest();
        return stream;
      },
    ],
    [
      'the client gone before the stream started',
      async (slots) => {
        const client = new AbortController();
        client.abort();
        const stream = open(slots, async () => () => {}, undefined, client);
        expect(await stream.body.rest()).toBe(': connected\n\n');
        return stream;
      },
    ],
    [
      'the reader cancelling the body',
      async (slots) => {
        const stream = open(slots);
        await stream.body.received();
        expect(slots.heldBy('u')).toBe(2);
        await stream.body.cancel();
        return stream;
      },
    ],
    [
      'the server ending it (the run is done)',
      async (slots) => {
        let close!: () => void;
        const stream = open(slots, (_send, c) => {
          close = c;
          return () => {};
        });
        await stream.body.received();
        expect(slots.heldBy('u')).toBe(2);
        close();
        await stream.body.rest();
        return stream;
      },
    ],
    [
      'a slow consumer dropped',
      async (slots) => {
        let send!: (message: SseMessage) => void;
        const stream = open(slots, (s) => {
          send = s;
          return () => {};
        });
        await Promise.resolve();
        expect(slots.heldBy('u')).toBe(2);
        const size = 1024 * 1024;
        for (let id = 1; id <= SLOW_CONSUMER_BYTES / size + 2; id++)
          send({ id, event: 'text', data: { pad: 'x'.repeat(size) } });
        expect((await stream.body.rest()).endsWith(formatSse(slowConsumer({ runId: 'r1' })))).toBe(true);
        return stream;
      },
    ],
    [
      "the caller's access ended (the guard refuses)",
      async (slots) => {
        const fake = fakeGuard();
        const stream = open(slots, () => () => {}, fake.guard);
        await stream.body.received();
        expect(slots.heldBy('u')).toBe(2);
        await vi.advanceTimersByTimeAsync(1_000);
        await fake.answer(false);
        expect((await stream.body.rest()).endsWith(formatSse(accessEnded({ runId: 'r1' })))).toBe(true);
        return stream;
      },
    ],
    [
      'an error thrown while the stream is set up',
      async (slots) => {
        const stream = open(slots, async () => {
          throw new AppError('not_found:run', 404, 'No such run');
        });
        expect(await stream.body.rest()).toContain('"code":"not_found:run"');
        return stream;
      },
    ],
  ];

  it.each(ends)('%s gives the slot back, once', async (_name, end) => {
    const slots = new StreamSlots();
    // Another stream of the same user, still open: a second release must not free its slot.
    const neighbour = slots.take('u', 8);
    const { client, body } = await end(slots);
    expect(slots.heldBy('u')).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    // Every other way of ending it, after the end: nothing more is given back.
    client.abort();
    await body.cancel();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(slots.heldBy('u')).toBe(1);
    expect(slots.open).toBe(1);
    neighbour.release();
    expect(slots.open).toBe(0);
  });

  it('a stream that cannot be built (its guard cannot watch) throws with its slot given back and no heartbeat left', () => {
    const slots = new StreamSlots();
    const guard: StreamGuard = {
      check: async () => true,
      watch: () => {
        throw new Error('credential changes are not available');
      },
    };
    const slot = slots.take('u', 8);
    expect(() => sseResponse(new AbortController().signal, () => () => {}, 1_000, guard, undefined, slot)).toThrow(
      'credential changes are not available',
    );
    expect(slots.heldBy('u')).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a stream's slot is held while it is open, whatever it waits for", async () => {
    const slots = new StreamSlots();
    const { body } = open(slots, async () => () => {});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await body.received()).toContain(': heartbeat');
    expect(slots.heldBy('u')).toBe(1);
    await body.cancel();
    expect(slots.heldBy('u')).toBe(0);
  });
});
