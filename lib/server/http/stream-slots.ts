// How many event streams each user, and the whole process, may hold open. An unread run stream
// keeps a replay page in memory (docs/decisions/0048), so without a count one signed-in user
// opening thousands of streams could exhaust the server's memory. A stream takes a slot before it
// starts (over a cap: a 429 `too_many_streams`, nothing started) and gives it back exactly once,
// whatever ends it: a second release is a no-op, so a path that releases twice cannot free
// another stream's slot, and every end path can release without asking whether another did.
import { AppError } from './errors';

/** Streams one process holds open at most, whoever holds them: a backstop behind the per-user cap. */
export const MAX_STREAMS = 2_000;
/** Streams one user (all their sessions and API tokens together) may hold open when GATEHOUSE_MAX_STREAMS_PER_USER is unset. */
export const DEFAULT_MAX_STREAMS_PER_USER = 32;

/** One open stream's place in the count. */
export interface StreamSlot {
  /** Gives the place back; only the first call counts. */
  release(): void;
}

export class StreamSlots {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(private readonly maxStreams = MAX_STREAMS) {}

  /** A slot for one more stream of `userId`, or a 429 `too_many_streams` naming the limit reached. */
  take(userId: string, perUser: number): StreamSlot {
    const mine = this.held.get(userId) ?? 0;
    if (mine >= perUser)
      throw new AppError(
        'too_many_streams',
        429,
        `Too many event streams open: a user may hold ${perUser} at once (GATEHOUSE_MAX_STREAMS_PER_USER); close one and try again`,
        { limit: perUser },
      );
    if (this.total >= this.maxStreams)
      throw new AppError(
        'too_many_streams',
        429,
        `Too many event streams open: the server holds ${this.maxStreams} at most; try again shortly`,
        { limit: this.maxStreams },
      );
    this.held.set(userId, mine + 1);
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

  /** Streams `userId` holds open now. */
  heldBy(userId: string): number {
    return this.held.get(userId) ?? 0;
  }

  /** Streams open in all. */
  get open(): number {
    return this.total;
  }

  private giveBack(userId: string): void {
    const mine = (this.held.get(userId) ?? 0) - 1;
    // A user with no stream open leaves no entry: the map holds only who holds streams now.
    if (mine > 0) this.held.set(userId, mine);
    else this.held.delete(userId);
    this.total--;
  }
}

const KEY = Symbol.for('gatehouse.streamSlots');

/**
 * This process's count. Kept on globalThis because Next bundles route handlers separately: a
 * module-level count would exist once per bundle, and each route would get its own cap.
 */
export function streamSlots(): StreamSlots {
  const holder = globalThis as { [KEY]?: StreamSlots };
  return (holder[KEY] ??= new StreamSlots());
}
