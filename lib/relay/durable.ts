// A broker over a RelayStore: the store is the source of truth and decides who wins; this class
// wakes the waiters of this process and enforces deadlines with timers that only ever try a
// conditional "expire". Another instance's decision reaches a waiter through `notify(id)` (the
// server calls it on LISTEN/NOTIFY) or, as a safety net, through a periodic re-read.
import { isRunDetached, RelayAlreadyResolvedError, RelayNotFoundError } from './errors';
import type { RelayStore } from './store';
import type {
  ApprovalClaim,
  Approver,
  RelayBroker,
  RelayProgress,
  RelayFilter,
  RelayOutcome,
  RelayRecord,
  RelayRequest,
  RelayResponse,
  Resolution,
} from './types';

interface Waiter {
  wake(outcome: RelayOutcome): void;
  progress(progress: RelayProgress): void;
}

/** What tells two progress reports apart (approvals are only added, or reset by an edit). */
const progressKey = (p: RelayProgress) => JSON.stringify([p.approvals.map((a) => a.by), p.params ?? null]);

export interface DurableBrokerOptions {
  now?: () => number;
  /** How often a waiting relay re-reads the store in case a notification was missed (ms). */
  pollMs?: number;
}

export class DurableRelayBroker implements RelayBroker {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly now: () => number;
  private readonly pollMs: number;

  constructor(
    private readonly store: RelayStore,
    options: DurableBrokerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.pollMs = options.pollMs ?? 5_000;
  }

  async register(request: RelayRequest, options?: { outside?: boolean }): Promise<void> {
    await this.store.insert(request, options);
  }

  async wait(
    id: string,
    options: { signal?: AbortSignal; onProgress?: (progress: RelayProgress) => void } = {},
  ): Promise<RelayOutcome> {
    const record = await this.store.get(id);
    if (!record) throw new RelayNotFoundError(id);
    if (record.outcome) return record.outcome;
    return new Promise<RelayOutcome>((resolve) => {
      let done = false;
      let seen = record.progress ? progressKey(record.progress) : '';
      const timers: ReturnType<typeof setTimeout>[] = [];
      const waiter: Waiter = {
        progress: (progress) => {
          const key = progressKey(progress);
          if (done || key === seen) return;
          seen = key;
          options.onProgress?.(progress);
        },
        wake: (outcome) => {
          if (done) return;
          done = true;
          for (const t of timers) clearTimeout(t);
          clearInterval(poll);
          this.waiters.get(id)?.delete(waiter);
          options.signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      const set = this.waiters.get(id) ?? new Set();
      set.add(waiter);
      this.waiters.set(id, set);
      const expire = () =>
        void this.trySettle(id, {
          status: 'expired',
          reason: 'Approval timeout',
          decidedBy: 'system',
          decidedAt: this.now(),
        });
      const arm = () => {
        const delay = record.request.expiresAt - this.now();
        if (delay <= 0) return expire();
        timers.push(setTimeout(arm, Math.min(delay, 2_147_000_000)));
      };
      arm();
      const onAbort = () => {
        // Detached: end the wait here and record nothing; the relay stays open for whoever continues the run.
        if (isRunDetached(options.signal?.reason))
          return waiter.wake({
            status: 'cancelled',
            reason: 'The run continues elsewhere',
            decidedBy: 'system',
            decidedAt: this.now(),
          });
        void this.trySettle(id, {
          status: 'cancelled',
          reason: 'The run was stopped',
          decidedBy: 'system',
          decidedAt: this.now(),
        });
      };
      // The safety net: pick up decisions whose notification was missed, and retry an expiry or a
      // cancellation that failed because storage was unreachable.
      const poll = setInterval(() => {
        if (options.signal?.aborted) onAbort();
        else if (record.request.expiresAt <= this.now()) expire();
        else void this.refresh(id);
      }, this.pollMs);
      poll.unref?.();
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async resolve(id: string, response: RelayResponse, decidedBy = 'user', claim?: ApprovalClaim): Promise<RelayOutcome> {
    const outcome = this.outcomeOf(response, decidedBy);
    const result = await this.store.settle(id, outcome, claim);
    if (result.ok === 'partial')
      throw new Error('A relay needing several approvers counted an approval without a person');
    if (!result.ok) {
      this.wake(id, result.current);
      throw new RelayAlreadyResolvedError(id, result.current);
    }
    this.wake(id, result.outcome);
    return result.outcome;
  }

  async decide(id: string, response: RelayResponse, approver: Approver, claim?: ApprovalClaim): Promise<Resolution> {
    const outcome = this.outcomeOf(response, approver.user);
    const result = await this.store.settle(id, outcome, claim, approver);
    if (result.ok === 'partial') {
      for (const waiter of [...(this.waiters.get(id) ?? [])]) waiter.progress(result.progress);
      return { status: 'partial', progress: result.progress };
    }
    if (!result.ok) {
      this.wake(id, result.current);
      throw new RelayAlreadyResolvedError(id, result.current);
    }
    this.wake(id, result.outcome);
    return { status: 'decided', outcome: result.outcome };
  }

  private outcomeOf(response: RelayResponse, decidedBy: string): RelayOutcome {
    return {
      status: response.approved ? 'approved' : 'denied',
      response,
      decidedBy,
      decidedAt: this.now(),
      ...(response.approved ? {} : { reason: response.reason?.trim() || 'Denied by the user' }),
    };
  }

  get(id: string): Promise<RelayRecord | undefined> {
    return this.store.get(id);
  }

  listPending(filter?: RelayFilter): Promise<RelayRequest[]> {
    return this.store.listPending(filter);
  }

  async cancelRun(runId: string, reason = 'The run was cancelled'): Promise<number> {
    let count = 0;
    for (const id of await this.store.pendingOfRun(runId)) {
      const result = await this.trySettle(id, {
        status: 'cancelled',
        reason,
        decidedBy: 'system',
        decidedAt: this.now(),
      });
      if (result?.ok) count++;
    }
    return count;
  }

  /**
   * Cancels one pending relay (a denial for whoever waits), with the reason the audit shows: an
   * outside agent's request ended before a decision. False if it was already settled (or storage
   * was unreachable: the waiter's poll retries nothing then, so the caller decides what to do).
   */
  async cancel(id: string, reason: string): Promise<boolean> {
    const result = await this.trySettle(id, { status: 'cancelled', reason, decidedBy: 'system', decidedAt: this.now() });
    return result?.ok === true;
  }

  /** Another instance (or a direct database write) may have settled the relay: re-read and wake. */
  async notify(id: string): Promise<void> {
    await this.refresh(id);
  }

  /**
   * Re-reads every relay this process waits for: after the notification channel was lost and
   * restored (notifications sent meanwhile are gone), so no decision waits for the slow poll.
   */
  async notifyAll(): Promise<void> {
    await Promise.all([...this.waiters.keys()].map((id) => this.refresh(id)));
  }

  private async refresh(id: string): Promise<void> {
    if (!this.waiters.has(id)) return;
    const record = await this.store.get(id).catch(() => undefined);
    if (record?.outcome) this.wake(id, record.outcome);
    else if (record?.progress) for (const waiter of [...(this.waiters.get(id) ?? [])]) waiter.progress(record.progress);
  }

  private async trySettle(id: string, outcome: RelayOutcome) {
    try {
      const result = await this.store.settle(id, outcome);
      if (result.ok !== 'partial') this.wake(id, result.ok ? result.outcome : result.current);
      return result;
    } catch {
      // Storage unreachable: the waiter keeps waiting and the poll retries; nothing is executed.
      return undefined;
    }
  }

  private wake(id: string, outcome: RelayOutcome): void {
    for (const waiter of [...(this.waiters.get(id) ?? [])]) waiter.wake(outcome);
    this.waiters.delete(id);
  }
}
