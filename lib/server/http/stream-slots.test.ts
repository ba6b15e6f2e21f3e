import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toResponse } from './errors';
import { DEFAULT_MAX_STREAMS_PER_USER, MAX_STREAMS, StreamSlots, streamSlots, type StreamSlot } from './stream-slots';

/** What `take` threw, as the route's response would carry it. */
async function refusal(take: () => unknown) {
  try {
    take();
  } catch (error) {
    const response = toResponse(error);
    return { status: response.status, body: (await response.json()) as { error: Record<string, unknown> } };
  }
  throw new Error('the slot was given');
}

describe('StreamSlots: a user holds at most their cap of open streams', () => {
  it.each([1, 3, DEFAULT_MAX_STREAMS_PER_USER])(
    'with a cap of %i, stream cap+1 is refused with a 429 too_many_streams naming the limit',
    async (cap) => {
      const slots = new StreamSlots();
      for (let i = 0; i < cap; i++) slots.take('alice', cap);
      expect(slots.heldBy('alice')).toBe(cap);
      const { status, body } = await refusal(() => slots.take('alice', cap));
      expect(status).toBe(429);
      expect(body.error).toMatchObject({ code: 'too_many_streams', limit: cap });
      expect(body.error.message).toContain(`a user may hold ${cap} at once (GATEHOUSE_MAX_STREAMS_PER_USER)`);
      // A refusal takes nothing.
      expect(slots.heldBy('alice')).toBe(cap);
      expect(slots.open).toBe(cap);
    },
  );

  it('closing one stream lets a new one open', () => {
    const slots = new StreamSlots();
    const [first] = [slots.take('alice', 2), slots.take('alice', 2)];
    expect(() => slots.take('alice', 2)).toThrow(/too many event streams/i);
    first!.release();
    expect(slots.heldBy('alice')).toBe(1);
    expect(() => slots.take('alice', 2)).not.toThrow();
  });

  it("a slot is given back once: releasing it again frees nobody else's", () => {
    const slots = new StreamSlots();
    const mine = slots.take('alice', 3);
    slots.take('alice', 3);
    slots.take('bob', 3);
    for (let i = 0; i < 5; i++) mine.release();
    expect(slots.heldBy('alice')).toBe(1);
    expect(slots.heldBy('bob')).toBe(1);
    expect(slots.open).toBe(2);
  });

  it('two users do not share a count', () => {
    const slots = new StreamSlots();
    slots.take('alice', 1);
    expect(() => slots.take('alice', 1)).toThrow(/too many event streams/i);
    expect(() => slots.take('bob', 1)).not.toThrow();
    expect(slots.heldBy('bob')).toBe(1);
  });

  it('a user with nothing open leaves no entry behind', () => {
    const slots = new StreamSlots();
    slots.take('alice', 1).release();
    expect(slots.heldBy('alice')).toBe(0);
    expect(slots.open).toBe(0);
    expect((slots as unknown as { slots: { held: Map<string, number> } }).slots.held.size).toBe(0);
  });
});

describe('StreamSlots: the process holds at most MAX_STREAMS, whoever opens them', () => {
  it('refuses anyone once the process is full, naming its limit, and opens again when one closes', async () => {
    const slots = new StreamSlots(4);
    const held = ['a', 'b', 'c', 'd'].map((user) => slots.take(user, 32));
    const { status, body } = await refusal(() => slots.take('e', 32));
    expect(status).toBe(429);
    expect(body.error).toMatchObject({ code: 'too_many_streams', limit: 4 });
    expect(body.error.message).toContain('the server holds 4 at most');
    held[0]!.release();
    expect(() => slots.take('e', 32)).not.toThrow();
  });

  it('is 2000 by default, and one count per process', () => {
    expect(MAX_STREAMS).toBe(2_000);
    expect(DEFAULT_MAX_STREAMS_PER_USER).toBe(32);
    expect(streamSlots()).toBe(streamSlots());
  });
});

describe('StreamSlots: invariants', () => {
  it('for any order of opens and closes, each count is what is open, and no cap is ever passed', () => {
    const users = ['a', 'b', 'c'];
    const op = fc.oneof(
      fc.record({ take: fc.constantFrom(...users) }),
      fc.record({ release: fc.nat(20), twice: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 8 }), fc.array(op), (perUser, max, ops) => {
        const slots = new StreamSlots(max);
        const open: { user: string; slot: StreamSlot }[] = [];
        for (const step of ops) {
          if ('take' in step) {
            const mine = open.filter((o) => o.user === step.take).length;
            const full = mine >= perUser || open.length >= max;
            if (full) expect(() => slots.take(step.take, perUser)).toThrow();
            else open.push({ user: step.take, slot: slots.take(step.take, perUser) });
          } else if (open.length > 0) {
            const [closed] = open.splice(step.release % open.length, 1);
            closed!.slot.release();
            if (step.twice) closed!.slot.release();
          }
          for (const user of users) expect(slots.heldBy(user)).toBe(open.filter((o) => o.user === user).length);
          expect(slots.open).toBe(open.length);
          expect(slots.open).toBeLessThanOrEqual(max);
        }
      }),
    );
  });
});
