// In-memory relays: a RelayStore in a Map, and the broker over it. One process, no durability;
// exactly-once holds because JavaScript settles one relay at a time and the first one wins.
import { DurableRelayBroker } from './durable';
import { RelayNotFoundError, RelayQuorumError } from './errors';
import type { RelayStore, ResolveResult } from './store';
import type { ApprovalClaim, Approver, RelayFilter, RelayOutcome, RelayRecord, RelayRequest } from './types';

export class MemoryRelayStore implements RelayStore {
  private readonly records = new Map<string, RelayRecord>();

  /**
   * @param retainMs how long a decided relay is kept, so a late second answer still gets
   * "already resolved" with the first decision rather than "not found".
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly retainMs = 60 * 60 * 1000,
  ) {}

  async insert(request: RelayRequest): Promise<void> {
    if (this.records.has(request.id)) throw new Error(`Relay ${request.id} is already registered`);
    this.prune();
    this.records.set(request.id, { request });
  }

  async get(id: string): Promise<RelayRecord | undefined> {
    return this.records.get(id);
  }

  async settle(id: string, outcome: RelayOutcome, claim?: ApprovalClaim, approver?: Approver): Promise<ResolveResult> {
    // Nothing here records executions: the executor claims the call itself.
    claim?.done(false);
    const record = this.records.get(id);
    if (!record) throw new RelayNotFoundError(id);
    if (record.outcome) return { ok: false, current: record.outcome };
    const isDecision = outcome.status === 'approved' || outcome.status === 'denied';
    if (isDecision && record.request.expiresAt <= this.now()) {
      record.outcome = { status: 'expired', reason: 'Approval timeout', decidedBy: 'system', decidedAt: this.now() };
      return { ok: false, current: record.outcome };
    }
    // A relay whose rule names approvers (one or several) is approved only by people, counted.
    const wanted = record.request.approvals;
    if (outcome.status === 'approved' && wanted) return this.count(record, outcome, wanted.count, approver);
    record.outcome = outcome;
    return { ok: true, outcome };
  }

  /** One person's approval of a relay that needs several (see RelayStore.settle). */
  private count(record: RelayRecord, outcome: RelayOutcome, needed: number, approver?: Approver): ResolveResult {
    if (!approver) throw new RelayQuorumError(record.request.id, 'needs_people');
    const edited = outcome.response?.params;
    const so = edited ? { approvals: [], needed } : (record.progress ?? { approvals: [], needed });
    if (so.approvals.some((a) => a.by === approver.user))
      throw new RelayQuorumError(record.request.id, 'same_approver');
    const params = edited ?? record.progress?.params;
    const approvals = [...so.approvals, { by: approver.user, role: approver.role, at: this.now() }];
    if (approvals.length < needed) {
      record.progress = { approvals, needed, ...(params ? { params } : {}) };
      return { ok: 'partial', progress: record.progress };
    }
    const response = outcome.response ? { ...outcome.response, ...(params ? { params } : {}) } : undefined;
    record.outcome = { ...outcome, ...(response ? { response } : {}), approvals };
    delete record.progress;
    return { ok: true, outcome: record.outcome };
  }

  async listPending(filter: RelayFilter = {}): Promise<RelayRequest[]> {
    const pending: RelayRequest[] = [];
    for (const { request, outcome } of this.records.values()) {
      if (outcome) continue;
      if (filter.runId && request.runId !== filter.runId) continue;
      if (filter.sessionId && request.sessionId !== filter.sessionId) continue;
      pending.push(request);
    }
    return pending.sort((a, b) => a.createdAt - b.createdAt);
  }

  async pendingOfRun(runId: string): Promise<string[]> {
    return (await this.listPending({ runId })).map((r) => r.id);
  }

  private prune(): void {
    const cutoff = this.now() - this.retainMs;
    for (const [id, record] of this.records) {
      if (record.outcome && record.outcome.decidedAt < cutoff) this.records.delete(id);
    }
  }
}

export class MemoryRelayBroker extends DurableRelayBroker {
  constructor(now: () => number = Date.now, retainMs?: number) {
    super(new MemoryRelayStore(now, retainMs), { now });
  }
}
