// Several instances on one PostgreSQL (docs/DEPLOY.md): what crosses between them goes through the
// database, and LISTEN/NOTIFY only says "re-read". One bus subscription per channel per process:
// relay settlements wake this process's waiters; event appends make the streams that follow a run
// pull its log after the last seq they delivered. A (re)connect re-reads everything followed, since
// notifications sent while the listener was away are lost.
import type { CredentialChanges } from '../../db';
import type { DurableRelayBroker } from '../../relay';
import type { PgNotifyBus } from './pg-notify';

/** What a run's lease needs: this instance's id and the lease length. */
export interface ClusterOptions {
  bus: PgNotifyBus;
  /** This instance's id (lib/server/cluster/instance.ts), the owner recorded on the leases it holds. */
  owner: string;
  leaseTtlS: number;
  /** Where failures that must not stop anything are reported (a lost notify, a failed renewal). */
  onError?: (error: Error) => void;
}

/** Settlements from any instance wake the waiters of this one; returns the unsubscribe. */
export async function listenForRelays(bus: PgNotifyBus, broker: DurableRelayBroker): Promise<() => void> {
  const offs = [
    bus.on('connected', () => void broker.notifyAll()),
    bus.on('reconnected', () => void broker.notifyAll()),
  ];
  const unsubscribe = await bus.subscribe('gatehouse_relay', ({ relayId }) => broker.notify(relayId));
  return () => {
    for (const off of offs) off();
    unsubscribe();
  };
}

/**
 * Credential changes cross instances: a user, token or session changed here is announced with the
 * user's id, and one changed elsewhere (or a reconnect, after which notices may have been lost)
 * drops this instance's cached token rows and makes its open streams of that user (of everyone,
 * after a reconnect) re-check their credential, so a revoked token, an ended session or a disabled
 * user is refused everywhere within a notification's latency, not only once the cache's TTL lapses.
 * Returns the unsubscribe.
 */
export async function shareCredentialChanges(
  bus: PgNotifyBus,
  credentials: CredentialChanges,
  owner: string,
  onError: (error: Error) => void = () => undefined,
): Promise<() => void> {
  const offs = [
    credentials.onChange(
      (userId) =>
        void bus.notify('gatehouse_credentials', { from: owner, ...(userId ? { userId } : {}) }).catch(onError),
    ),
    // Notices sent while the listener was away are lost: anyone's credentials may have changed.
    bus.on('reconnected', () => credentials.changedElsewhere()),
  ];
  const unsubscribe = await bus.subscribe('gatehouse_credentials', ({ from, userId }) => {
    if (from !== owner) credentials.changedElsewhere(userId);
  });
  return () => {
    for (const off of offs) off();
    unsubscribe();
  };
}

/** What a run-change notification asks of this instance (RunManager). */
export interface RunChangeHandlers {
  /** Another instance cancelled the run or switched its mode: the executor re-reads it. */
  control(runId: string): void;
  /** Another instance released the run's lease (it shut down): adopt it now rather than after the TTL. */
  released(runId: string): void;
}

/** Announces a change to a run made here for the instance that executes it (or would adopt it). */
export function announceRunChange(bus: PgNotifyBus, runId: string, change: 'control' | 'released'): Promise<void> {
  return bus.notify('gatehouse_run', { runId, change });
}

/** Run changes from any instance reach this one's handlers; returns the unsubscribe. */
export async function listenForRunChanges(bus: PgNotifyBus, handlers: RunChangeHandlers): Promise<() => void> {
  return bus.subscribe('gatehouse_run', ({ runId, change }) =>
    change === 'control' ? handlers.control(runId) : handlers.released(runId),
  );
}

/** One stream following one run: `pull` reads the log after the last seq it delivered. */
export interface RunFollower {
  last(): number;
  pull(): void;
}

/** The streams of this process, by run: one LISTEN gatehouse_events for all of them. */
export class RunFollowers {
  private readonly followers = new Map<string, Set<RunFollower>>();
  private readonly subscribed: Promise<(() => void) | undefined>;
  private readonly offs: Array<() => void>;

  constructor(bus: PgNotifyBus, onError: (error: Error) => void = () => undefined) {
    this.subscribed = bus
      .subscribe('gatehouse_events', ({ runId, seq }) => {
        for (const follower of [...(this.followers.get(runId) ?? [])]) if (seq > follower.last()) follower.pull();
      })
      .catch((error: Error) => {
        onError(error);
        return undefined;
      });
    const all = () => {
      for (const set of this.followers.values()) for (const follower of [...set]) follower.pull();
    };
    this.offs = [bus.on('connected', all), bus.on('reconnected', all)];
  }

  /** Resolves once notifications for the run reach the follower (LISTEN in effect); returns the removal. */
  async add(runId: string, follower: RunFollower): Promise<() => void> {
    const set = this.followers.get(runId) ?? new Set();
    set.add(follower);
    this.followers.set(runId, set);
    await this.subscribed;
    return () => {
      set.delete(follower);
      if (set.size === 0 && this.followers.get(runId) === set) this.followers.delete(runId);
    };
  }

  async close(): Promise<void> {
    for (const off of this.offs) off();
    (await this.subscribed)?.();
    this.followers.clear();
  }
}
