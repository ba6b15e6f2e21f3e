// Run leases of one instance among several (docs/DEPLOY.md): a run is executed only by the holder
// of its lease. Held leases are renewed every third of the TTL; about once per TTL the instance
// tries to adopt the runs whose lease lapsed. The database decides every race (lib/db/leases.ts).
import type { Queries, RenewedLease } from '../../db';
import type { ClusterOptions } from './cluster';

export interface RunLeaseHooks {
  /** The runs this instance executes now (the leases to renew). */
  executing(): string[];
  /** Adopts the runs nobody holds (RunManager.recover). */
  takeOver(): Promise<unknown>;
  /** The lease of a run executing here was taken over (this instance was cut off too long): stop the copy. */
  lost(runId: string): void;
  /** A renewal read the run's status and mode now: a change made through another instance applies here. */
  observed(lease: RenewedLease): void;
}

export class RunLeases {
  private readonly timer: ReturnType<typeof setInterval>;
  private recovering: Promise<unknown> | undefined;

  constructor(
    private readonly leases: Queries['leases'],
    private readonly cluster: ClusterOptions,
    private readonly hooks: RunLeaseHooks,
  ) {
    let ticks = 0;
    this.timer = setInterval(
      () => {
        void this.renew();
        if (++ticks % 3 === 0) this.takeOver();
      },
      (cluster.leaseTtlS * 1000) / 3,
    );
    this.timer.unref?.();
  }

  get owner(): string {
    return this.cluster.owner;
  }

  /**
   * True when this instance now holds the run's lease (it was free, lapsed, or already ours).
   * `leases`: the queries of a transaction to take it in (a new run's, with its creation).
   */
  async acquire(runId: string, leases: Queries['leases'] = this.leases): Promise<boolean> {
    return (
      (await leases.acquireLease({ runId, owner: this.cluster.owner, ttlS: this.cluster.leaseTtlS })) !== undefined
    );
  }

  /** Gives the lease up (the run ended here); a failure only delays a takeover until the expiry. */
  async release(runId: string): Promise<void> {
    await this.leases.releaseLease({ runId, owner: this.cluster.owner }).catch((error: Error) => this.report(error));
  }

  close(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    const runIds = this.hooks.executing();
    if (runIds.length === 0) return;
    try {
      const renewed = new Map(
        (await this.leases.renewLeases({ owner: this.cluster.owner, ttlS: this.cluster.leaseTtlS, runIds })).map(
          (lease) => [lease.runId, lease],
        ),
      );
      const executing = new Set(this.hooks.executing());
      for (const id of runIds) {
        if (!executing.has(id)) continue; // ended meanwhile
        const lease = renewed.get(id);
        if (lease) this.hooks.observed(lease);
        else {
          this.report(new Error(`The lease of run ${id} was taken over by another instance; its copy here stops`));
          this.hooks.lost(id);
        }
      }
    } catch (error) {
      this.report(error as Error);
    }
  }

  /** Adopts lapsed or released runs now (e.g. another instance released its leases at shutdown). */
  takeOverSoon(): void {
    this.takeOver();
  }

  /** Gives up the leases of these runs in one go (shutdown); failures are only reported. */
  async releaseAll(runIds: string[]): Promise<void> {
    await Promise.all(runIds.map((runId) => this.release(runId)));
  }

  private takeOver(): void {
    this.recovering ??= this.hooks
      .takeOver()
      .catch((error: Error) => this.report(error))
      .finally(() => (this.recovering = undefined));
  }

  private report(error: Error): void {
    if (this.cluster.onError) this.cluster.onError(error);
    else console.error('[gatehouse]', error.message);
  }
}
