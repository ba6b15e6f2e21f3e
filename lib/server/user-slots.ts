// A count of what each user holds at once (open event streams, runs of Gatehouse's agent, outside
// calls waiting for a person), with a cap per user and, optionally, one for the whole process. A
// place is taken before the thing starts (over a cap: refused, nothing taken) and given back exactly
// once, whatever ends it: a second release is a no-op, so a path that releases twice cannot free
// another's place, and every end path can release without asking whether another did.

/** One held place in the count. */
export interface UserSlot {
  /** Gives the place back; only the first call counts. */
  release(): void;
}

/** Which cap a refused place ran into: the user's own, or the process's. */
export type SlotRefusal = { scope: 'user'; limit: number } | { scope: 'process'; limit: number };

export class UserSlots {
  private readonly held = new Map<string, number>();
  private total = 0;

  /** `maxTotal`: what the whole process holds at most, whoever holds it. */
  constructor(private readonly maxTotal = Infinity) {}

  /** A place for one more of `userId`'s, or why not (nothing is taken then). */
  tryTake(userId: string, perUser: number): UserSlot | SlotRefusal {
    const mine = this.held.get(userId) ?? 0;
    if (mine >= perUser) return { scope: 'user', limit: perUser };
    if (this.total >= this.maxTotal) return { scope: 'process', limit: this.maxTotal };
    return this.add(userId);
  }

  /**
   * A place counted without a cap: for what exists already and must be counted (a run resumed at
   * start), so the user's next new one sees it.
   */
  add(userId: string): UserSlot {
    this.held.set(userId, (this.held.get(userId) ?? 0) + 1);
    this.total++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.giveBack(userId);
      },
    };
  }

  /** What `userId` holds now. */
  heldBy(userId: string): number {
    return this.held.get(userId) ?? 0;
  }

  /** What is held in all. */
  get open(): number {
    return this.total;
  }

  private giveBack(userId: string): void {
    const mine = (this.held.get(userId) ?? 0) - 1;
    // A user holding nothing leaves no entry: the map holds only who holds something now.
    if (mine > 0) this.held.set(userId, mine);
    else this.held.delete(userId);
    this.total--;
  }
}

export const isRefusal = (taken: UserSlot | SlotRefusal): taken is SlotRefusal => 'scope' in taken;
