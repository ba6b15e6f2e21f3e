// Run leases of one instance among several (docs/DEPLOY.md): a run is executed only by the holder
// of its lease. Held leases are renewed every third of the TTL; about once per TTL the instance
// tries to adopt the runs whose lease lapsed. The database decides every race (lib/db/leases.ts).
import type { Queries } from '../db';
import type { ClusterOptions } from './cluster';

export interface RunLeaseHooks {
  /** The runs this instance executes now (the leases to renew). */
  executing(): string[];
  /** Adopts the runs nobody holds (RunManager.recover). */
  takeOver(): Promise<unknown>;
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
    this.timer = setInterval(() => {
      void this.renew();
      if (++ticks % 3 === 0) this.takeOver();
    }, (cluster.leaseTtlS * 1000) / 3);
    this.timer.unref?.();
  }

  get owner(): string {
    return this.cluster.owner;
  }

  /** True when this instance now holds the run's lease (it was free, lapsed, or already ours). */
  async acquire(runId: string): Promise<boolean> {
    return (await this.leases.acquireLease({ runId, owner: this.cluster.owner, ttlS: this.cluster.leaseTtlS })) !== undefined;
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
      const renewed = new Set(await this.leases.renewLeases({ owner: this.cluster.owner, ttlS: this.cluster.leaseTtlS, runIds }));
      const executing = new Set(this.hooks.executing());
      for (const id of runIds) {
        // Taken over after this instance lost the database for longer than the TTL. The tool-call
        // claims keep a call from running twice; stopping the local copy is left to a later change.
        if (!renewed.has(id) && executing.has(id)) this.report(new Error(`The lease of run ${id} was lost to another instance`));
      }
    } catch (error) {
      this.report(error as Error);
    }
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
