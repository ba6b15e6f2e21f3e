// How many event streams each user, and the whole process, may hold open. An unread run stream
// keeps a replay page in memory (docs/decisions/0048), so without a count one signed-in user
// opening thousands of streams could exhaust the server's memory. A stream takes a slot before it
// starts (over a cap: a 429 `too_many_streams`, nothing started) and gives it back exactly once,
// whatever ends it (user-slots.ts).
import { isRefusal, UserSlots, type UserSlot } from '../user-slots';
import { AppError } from './errors';

/** Streams one process holds open at most, whoever holds them: a backstop behind the per-user cap. */
export const MAX_STREAMS = 2_000;
/** Streams one user (all their sessions and API tokens together) may hold open when GATEHOUSE_MAX_STREAMS_PER_USER is unset. */
export const DEFAULT_MAX_STREAMS_PER_USER = 32;

/** One open stream's place in the count. */
export type StreamSlot = UserSlot;

export class StreamSlots {
  private readonly slots: UserSlots;

  constructor(maxStreams = MAX_STREAMS) {
    this.slots = new UserSlots(maxStreams);
  }

  /** A slot for one more stream of `userId`, or a 429 `too_many_streams` naming the limit reached. */
  take(userId: string, perUser: number): StreamSlot {
    const taken = this.slots.tryTake(userId, perUser);
    if (!isRefusal(taken)) return taken;
    throw new AppError(
      'too_many_streams',
      429,
      taken.scope === 'user'
        ? `Too many event streams open: a user may hold ${perUser} at once (GATEHOUSE_MAX_STREAMS_PER_USER); close one and try again`
        : `Too many event streams open: the server holds ${taken.limit} at most; try again shortly`,
      { limit: taken.limit },
    );
  }

  /** Streams `userId` holds open now. */
  heldBy(userId: string): number {
    return this.slots.heldBy(userId);
  }

  /** Streams open in all. */
  get open(): number {
    return this.slots.open;
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
