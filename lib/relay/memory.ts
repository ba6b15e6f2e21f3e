// In-memory relay broker: one process, no durability. Exactly-once holds because JavaScript runs
// one resolution at a time and the first one wins; deadlines are timers that settle as `expired`.
import { RelayAlreadyResolvedError, RelayNotFoundError } from './errors';
import type { RelayBroker, RelayFilter, RelayOutcome, RelayRecord, RelayRequest, RelayResponse } from './types';

interface Entry {
  record: RelayRecord;
  waiters: ((outcome: RelayOutcome) => void)[];
  timer?: ReturnType<typeof setTimeout>;
}

export class MemoryRelayBroker implements RelayBroker {
  private readonly entries = new Map<string, Entry>();

  /**
   * @param retainMs how long a decided relay is kept, so a late second answer still gets
   * "already resolved" with the first decision rather than "not found".
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly retainMs = 60 * 60 * 1000,
  ) {}

  async register(request: RelayRequest): Promise<void> {
    if (this.entries.has(request.id)) throw new Error(`Relay ${request.id} is already registered`);
    this.prune();
    const entry: Entry = { record: { request }, waiters: [] };
    this.entries.set(request.id, entry);
    this.schedule(entry);
  }

  async wait(id: string, options: { signal?: AbortSignal } = {}): Promise<RelayOutcome> {
    const entry = this.entries.get(id);
    if (!entry) throw new RelayNotFoundError(id);
    if (entry.record.outcome) return entry.record.outcome;
    const settled = new Promise<RelayOutcome>((resolve) => entry.waiters.push(resolve));
    const signal = options.signal;
    if (signal) {
      const onAbort = () => this.settle(entry, { status: 'cancelled', reason: 'The run was stopped', decidedBy: 'system', decidedAt: this.now() });
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      void settled.finally(() => signal.removeEventListener('abort', onAbort));
    }
    return settled;
  }

  async resolve(id: string, response: RelayResponse, decidedBy = 'user'): Promise<RelayOutcome> {
    const entry = this.entries.get(id);
    if (!entry) throw new RelayNotFoundError(id);
    if (entry.record.outcome) throw new RelayAlreadyResolvedError(id, entry.record.outcome);
    if (entry.record.request.expiresAt <= this.now()) {
      const expired = this.expiredOutcome();
      this.settle(entry, expired);
      throw new RelayAlreadyResolvedError(id, expired);
    }
    const outcome: RelayOutcome = {
      status: response.approved ? 'approved' : 'denied',
      response,
      decidedBy,
      decidedAt: this.now(),
      ...(response.approved ? {} : { reason: response.reason?.trim() || 'Denied by the user' }),
    };
    this.settle(entry, outcome);
    return outcome;
  }

  async get(id: string): Promise<RelayRecord | undefined> {
    return this.entries.get(id)?.record;
  }

  async listPending(filter: RelayFilter = {}): Promise<RelayRequest[]> {
    const pending: RelayRequest[] = [];
    for (const { record } of this.entries.values()) {
      if (record.outcome) continue;
      if (filter.runId && record.request.runId !== filter.runId) continue;
      if (filter.sessionId && record.request.sessionId !== filter.sessionId) continue;
      pending.push(record.request);
    }
    return pending.sort((a, b) => a.createdAt - b.createdAt);
  }

  async cancelRun(runId: string, reason = 'The run was cancelled'): Promise<number> {
    let count = 0;
    for (const entry of this.entries.values()) {
      if (entry.record.outcome || entry.record.request.runId !== runId) continue;
      this.settle(entry, { status: 'cancelled', reason, decidedBy: 'system', decidedAt: this.now() });
      count++;
    }
    return count;
  }

  private prune(): void {
    const cutoff = this.now() - this.retainMs;
    for (const [id, entry] of this.entries) {
      if (entry.record.outcome && entry.record.outcome.decidedAt < cutoff) this.entries.delete(id);
    }
  }

  private expiredOutcome(): RelayOutcome {
    return { status: 'expired', reason: 'Approval timeout', decidedBy: 'system', decidedAt: this.now() };
  }

  private schedule(entry: Entry): void {
    const delay = Math.max(0, entry.record.request.expiresAt - this.now());
    // Timers cap at ~24.8 days; longer deadlines re-arm.
    entry.timer = setTimeout(() => {
      if (entry.record.outcome) return;
      if (entry.record.request.expiresAt > this.now()) this.schedule(entry);
      else this.settle(entry, this.expiredOutcome());
    }, Math.min(delay, 2_147_000_000));
    entry.timer.unref?.();
  }

  private settle(entry: Entry, outcome: RelayOutcome): void {
    if (entry.record.outcome) return;
    entry.record.outcome = outcome;
    if (entry.timer) clearTimeout(entry.timer);
    const waiters = entry.waiters.splice(0);
    for (const wake of waiters) wake(outcome);
  }
}
