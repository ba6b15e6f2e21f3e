// The relay store the server uses: lib/relay's RelayStore over the relays table. The database's
// conditional updates decide every race (two answers, an answer against the deadline), so
// "exactly once" holds across requests, restarts and instances. With several instances, each
// settlement that this store wins is announced (`onSettled`, LISTEN/NOTIFY) after it is stored, so
// the instance whose run waits for the relay re-reads it at once.
import type { RelayQueries } from '../../db';
import { toRelayOutcome, toRelayRecord } from '../../db';
import {
  RelayNotFoundError,
  type ApprovalClaim,
  type RelayFilter,
  type RelayOutcome,
  type RelayRecord,
  type RelayRequest,
  type RelayStore,
  type ResolveResult,
} from '../../relay';

export interface DbRelayStoreOptions {
  /** Called after a settlement (decision, expiry, cancellation) was stored; its failure is only reported. */
  onSettled?: (relayId: string) => Promise<unknown>;
  onError?: (error: Error) => void;
  /**
   * Several instances: this instance's id. A relay is stored only while this instance holds its
   * run's lease (lib/db/lease-fence.ts), so a copy of a run that was taken over cannot raise one.
   */
  leaseOwner?: string;
}

export class DbRelayStore implements RelayStore {
  constructor(
    private readonly relays: RelayQueries,
    private readonly options: DbRelayStoreOptions = {},
  ) {}

  async insert(request: RelayRequest, { outside = false }: { outside?: boolean } = {}): Promise<void> {
    // An outside agent's run has no lease: its relay is raised by the request that waits for it.
    const fenced = !outside && this.options.leaseOwner !== undefined;
    await this.relays.insertRelay({ request, ...(fenced ? { leaseOwner: this.options.leaseOwner } : {}) });
  }

  async get(id: string): Promise<RelayRecord | undefined> {
    const row = await this.relays.getRelay({ id });
    return row ? toRelayRecord(row) : undefined;
  }

  /** An approval given with `claim` claims its call in the settle statement (lib/db relays.resolveRelay). */
  async settle(id: string, outcome: RelayOutcome, claim?: ApprovalClaim): Promise<ResolveResult> {
    const result = await this.settleOnce(id, outcome, claim);
    if (result.ok) await this.announce(id);
    return result;
  }

  private async announce(id: string): Promise<void> {
    if (!this.options.onSettled) return;
    // The decision is stored; a lost announcement only delays the waiter until its re-read.
    await this.options.onSettled(id).catch((error: Error) => this.options.onError?.(error));
  }

  private async settleOnce(id: string, outcome: RelayOutcome, given?: ApprovalClaim): Promise<ResolveResult> {
    const claim = outcome.status === 'approved' ? given : undefined;
    let claimed = false;
    try {
      if (outcome.status === 'expired') return await this.expire(id);
      const result = await this.relays.resolveRelay({
        id,
        status: outcome.status,
        response: outcome.response,
        reason: outcome.reason,
        decidedBy: outcome.decidedBy,
        ...(claim
          ? {
              claim: {
                toolCallId: claim.toolCallId,
                ...(claim.leaseOwner === undefined ? {} : { leaseOwner: claim.leaseOwner }),
              },
            }
          : {}),
      });
      claimed = result.ok && result.claimed === true;
      return this.resultOf(id, result);
    } finally {
      given?.done(claimed);
    }
  }

  private resultOf(id: string, result: Awaited<ReturnType<RelayQueries['resolveRelay']>>): ResolveResult {
    if (result.ok) return { ok: true, outcome: toRelayOutcome(result.relay)! };
    if (result.reason === 'not_found') throw new RelayNotFoundError(id);
    return { ok: false, current: toRelayOutcome(result.current)! };
  }

  async listPending(filter: RelayFilter = {}): Promise<RelayRequest[]> {
    return (await this.relays.listPendingRelays(filter)).map((row) => row.request);
  }

  async pendingOfRun(runId: string): Promise<string[]> {
    return (await this.relays.listPendingRelays({ runId })).map((row) => row.id);
  }

  private async expire(id: string): Promise<ResolveResult> {
    const expired = await this.relays.expireRelay({ id });
    if (expired) return { ok: true, outcome: toRelayRecord(expired).outcome! };
    const row = await this.relays.getRelay({ id });
    if (!row) throw new RelayNotFoundError(id);
    const record = toRelayRecord(row);
    // Still pending by the database's clock: the caller retries later rather than guessing.
    if (!record.outcome) throw new Error(`Relay ${id} is not due yet by the database clock`);
    return { ok: false, current: record.outcome };
  }
}
