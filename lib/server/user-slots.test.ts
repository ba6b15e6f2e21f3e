import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRefusal, UserSlots, type UserSlot } from './user-slots';

const taken = (slot: ReturnType<UserSlots['tryTake']>): UserSlot => {
  if (isRefusal(slot)) throw new Error(`refused: ${JSON.stringify(slot)}`);
  return slot;
};

describe('UserSlots: what each user holds at once', () => {
  it("refuses the user's cap+1 and names their cap; a refusal takes nothing", () => {
    const slots = new UserSlots();
    taken(slots.tryTake('alice', 2));
    taken(slots.tryTake('alice', 2));
    expect(slots.tryTake('alice', 2)).toEqual({ scope: 'user', limit: 2 });
    expect(slots.heldBy('alice')).toBe(2);
    expect(slots.open).toBe(2);
    // Someone else is counted on their own.
    taken(slots.tryTake('bob', 2));
    expect(slots.heldBy('bob')).toBe(1);
  });

  it("refuses anyone once the process holds its cap, naming the process's limit", () => {
    const slots = new UserSlots(2);
    const a = taken(slots.tryTake('a', 10));
    taken(slots.tryTake('b', 10));
    expect(slots.tryTake('c', 10)).toEqual({ scope: 'process', limit: 2 });
    a.release();
    expect(isRefusal(slots.tryTake('c', 10))).toBe(false);
  });

  it('a release counts once, however often it is called', () => {
    const slots = new UserSlots();
    const first = taken(slots.tryTake('alice', 5));
    taken(slots.tryTake('alice', 5));
    first.release();
    first.release();
    expect(slots.heldBy('alice')).toBe(1);
    expect(slots.open).toBe(1);
  });

  it("counts what `add` brings in without a cap, and the user's next place sees it", () => {
    const slots = new UserSlots(1);
    slots.add('alice');
    slots.add('alice');
    expect(slots.heldBy('alice')).toBe(2);
    expect(slots.tryTake('alice', 2)).toEqual({ scope: 'user', limit: 2 });
  });

  it('a user holding nothing leaves no entry behind', () => {
    const slots = new UserSlots();
    taken(slots.tryTake('alice', 1)).release();
    expect((slots as unknown as { held: Map<string, number> }).held.size).toBe(0);
    expect(slots.open).toBe(0);
  });

  it('any sequence of takes and releases (double releases included) keeps the counts exact and within the caps', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ user: fc.constantFrom('a', 'b', 'c'), release: fc.nat(6), twice: fc.boolean() }), {
          maxLength: 60,
        }),
        (steps) => {
          const slots = new UserSlots(5);
          const held: { user: string; slot: UserSlot }[] = [];
          for (const step of steps) {
            const slot = slots.tryTake(step.user, 3);
            if (!isRefusal(slot)) held.push({ user: step.user, slot });
            const gone = held.splice(step.release % (held.length + 1), 1)[0];
            gone?.slot.release();
            if (step.twice) gone?.slot.release();
            for (const user of ['a', 'b', 'c']) {
              const count = held.filter((h) => h.user === user).length;
              expect(slots.heldBy(user)).toBe(count);
              expect(count).toBeLessThanOrEqual(3);
            }
            expect(slots.open).toBe(held.length);
            expect(slots.open).toBeLessThanOrEqual(5);
          }
        },
      ),
    );
  });
});
