// A run's event log as the server uses it: appends (one statement each, with the status change,
// audit rows and, with several instances, the NOTIFY for the others' streams), then this process's
// subscribers directly. `subscribe` replays the stored events after a seq and then follows the live ones;
// with several instances a notification (or a gap in what arrives here) makes a stream read the log
// after its last seq, so it gets every event once, in order, wherever the run executes.
// The replay reads the log a page at a time and, when the listener says its reader is behind,
// waits for it before going on, so a stream that is not read never holds more than a page.
import { upgradeStoredEvent, type LoggedEvent, type RunEvent } from '../../contract';
import type { AppendEffects, EventRow, Queries } from '../../db';
import type { RunFollowers } from '../cluster/cluster';
import type { PgNotifyBus } from '../cluster/pg-notify';

/**
 * Gets each event read from the log: today's shape, whatever version stored it (upgradeStoredEvent).
 * It may return a promise while its reader is behind: the replay reads on once it resolves, and
 * stops (`subscribe` rejects) if it rejects. Live events are not held back for it.
 */
export type EventListener = (event: LoggedEvent) => unknown;

/** Events the replay reads in one query. */
export const REPLAY_PAGE = 64;

/** The one place events are read from the log: rows in any stored shape come out as today's events. */
export async function readEvents(
  events: Queries['events'],
  runId: string,
  afterSeq?: number,
  limit?: number,
): Promise<LoggedEvent[]> {
  return (await events.listEvents({ runId, afterSeq, limit })).map(toStored);
}

export class RunLog {
  private readonly listeners = new Map<string, Set<EventListener>>();
  /** Each open subscription's `onClose`: called when this process stops serving (shutdown). */
  private readonly closers = new Set<() => void>();

  constructor(
    private readonly events: Queries['events'],
    private readonly cluster: { bus: PgNotifyBus; followers: RunFollowers } | undefined,
    private readonly report: (error: Error) => void,
  ) {}

  /** Appends the events (with their effects: one statement), then tells the subscribers in order. */
  async append(runId: string, events: RunEvent[], effects: AppendEffects = {}): Promise<void> {
    await this.appendClaiming(runId, events, effects);
  }

  /** `append`, and whether the effects' `claimExecution` won the claim. */
  async appendClaiming(runId: string, events: RunEvent[], effects: AppendEffects = {}): Promise<boolean> {
    if (events.length === 0) return false;
    // Several instances: the same statement tells the others' streams that the log grew (NOTIFY
    // gatehouse_events, delivered at its commit; a lost notice only delays them).
    const { rows, claimed } = await this.events.appendEventsClaiming({
      runId,
      events: events.map((event) => ({ type: event.type, data: event })),
      ...effects,
      ...(this.cluster ? { notifyChannel: 'gatehouse_events' } : {}),
    });
    for (const row of rows) for (const listener of this.listeners.get(runId) ?? []) listener(toStored(row));
    return claimed;
  }

  /** Ends every subscription (their `onClose` runs): this process stops serving streams. */
  closeAll(): void {
    for (const close of [...this.closers]) close();
    this.closers.clear();
  }

  /**
   * Replays the stored events after `afterSeq`, then follows the live ones; returns an unsubscribe.
   * `onClose` is called if the log stops serving first (shutdown): the client reconnects elsewhere.
   */
  async subscribe(runId: string, afterSeq: number, listener: EventListener, onClose?: () => void): Promise<() => void> {
    let last = afterSeq;
    // The highest seq announced while replaying: those events are read from the log instead.
    let announced = afterSeq;
    let replaying = true;
    let closed = false;
    const followers = this.cluster?.followers;
    // Several instances: the run may be executed elsewhere, so a notification (or a gap in what
    // arrives here) makes this stream read the log after its last seq. Pulls never overlap.
    let pulling = false;
    let pullAgain = false;
    const pull = () => {
      if (closed) return;
      if (pulling || replaying) return void (pullAgain = true);
      pulling = true;
      void (async () => {
        do {
          pullAgain = false;
          for (const event of await readEvents(this.events, runId, last)) deliver(event);
        } while (pullAgain && !closed);
      })()
        .catch((error: Error) => this.report(error))
        .finally(() => (pulling = false));
    };
    const deliver = (event: LoggedEvent) => {
      if (closed) return;
      if (replaying) return void (announced = Math.max(announced, event.seq));
      if (event.seq <= last) return;
      if (followers && event.seq > last + 1) return pull();
      last = event.seq;
      const wait = listener(event);
      // A live event is not held back: a reader that falls too far behind is the stream's to end.
      if (wait instanceof Promise) wait.catch(() => undefined);
    };
    const set = this.listeners.get(runId) ?? new Set();
    set.add(deliver);
    this.listeners.set(runId, set);
    const unfollow = await followers?.add(runId, { last: () => last, pull });
    try {
      // Until a short page, and again while events were announced beyond what was read: stored
      // before announced, so the log has them, and no event is left between replay and live.
      let page: LoggedEvent[];
      do {
        page = await readEvents(this.events, runId, last, REPLAY_PAGE);
        for (const event of page) {
          last = event.seq;
          const wait = listener(event);
          if (wait instanceof Promise) await wait;
        }
      } while (page.length === REPLAY_PAGE || (page.length > 0 && announced > last));
    } catch (error) {
      set.delete(deliver);
      unfollow?.();
      throw error;
    }
    replaying = false;
    // An announced event the log did not return (never expected) is read once more by a pull.
    if (pullAgain || announced > last) pull();
    const unsubscribe = () => {
      closed = true;
      unfollow?.();
      set.delete(deliver);
      if (set.size === 0 && this.listeners.get(runId) === set) this.listeners.delete(runId);
      this.closers.delete(closer);
    };
    const closer = () => {
      unsubscribe();
      onClose?.();
    };
    this.closers.add(closer);
    return unsubscribe;
  }
}

function toStored(row: EventRow): LoggedEvent {
  return upgradeStoredEvent(row);
}
