// The relay store the server uses: lib/relay's RelayStore over the relays table. The database's
// conditional updates decide every race (two answers, an answer against the deadline), so
// "exactly once" holds across requests, restarts and instances. With several instances, each
// settlement that this store wins is announced (`onSettled`, LISTEN/NOTIFY) after it is stored, so
// the instance whose run waits for the relay re-reads it at once.
import type { RelayQueries, RelayQuorumQueries } from '../../db';
import { needsQuorum, toRelayOutcome, toRelayRecord } from '../../db';
import {
  RelayNotFoundError,
  RelayQuorumError,
  type ApprovalClaim,
  type Approver,
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
  /** Relays that need several approvers (relay-quorum.ts); without it their approvals are refused. */
  quorum?: RelayQuorumQueries;
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
    if (!row) return undefined;
    const record = toRelayRecord(row);
    if (!needsQuorum(row) || !this.options.quorum) return record;
    if (record.outcome) {
      if (record.outcome.status !== 'approved') return record;
      return { ...record, outcome: { ...record.outcome, approvals: await this.options.quorum.approvalsOf({ id }) } };
    }
    const progress = await this.options.quorum.quorumOf({ id });
    return progress ? { ...record, progress } : record;
  }

  /**
   * An approval given with `claim` claims its call in the settle statement (lib/db relays.resolveRelay).
   * A person's approval (`approver`) of a relay that needs several is counted (lib/db relay-quorum.ts).
   */
  async settle(id: string, outcome: RelayOutcome, claim?: ApprovalClaim, approver?: Approver): Promise<ResolveResult> {
    const result =
      approver && outcome.status === 'approved'
        ? await this.settlePerson(id, outcome, approver, claim)
        : await this.settleOnce(id, outcome, claim);
    if (result.ok) await this.announce(id);
    return result;
  }

  /** A person's approval: an ordinary settle unless the relay needs several approvers. */
  private async settlePerson(
    id: string,
    outcome: RelayOutcome,
    approver: Approver,
    claim?: ApprovalClaim,
  ): Promise<ResolveResult> {
    const row = await this.relays.getRelay({ id });
    if (!row) {
      claim?.done(false);
      throw new RelayNotFoundError(id);
    }
    if (!needsQuorum(row)) return this.settleOnce(id, outcome, claim);
    // The executor claims the call itself: a quorum's last approval is rare enough to spend it.
    claim?.done(false);
    const quorum = this.options.quorum;
    if (!quorum) throw new RelayQuorumError(id, 'needs_people');
    const input = { id, user: approver.user, role: approver.role, response: outcome.response ?? { approved: true } };
    const edited = outcome.response?.params;
    const counted = edited
      ? await quorum.editQuorumApproval({ ...input, params: edited })
      : await quorum.countQuorumApproval(input);
    if (counted.ok === 'partial')
      return {
        ok: 'partial',
        progress: {
          approvals: counted.approvals,
          needed: counted.needed,
          ...(counted.params ? { params: counted.params } : {}),
        },
      };
    if (counted.ok === false && counted.reason === 'same_approver') throw new RelayQuorumError(id, 'same_approver');
    const record = await this.get(id);
    if (!record) throw new RelayNotFoundError(id);
    if (!record.outcome) {
      // Not pending by the statement, pending by the read: past its deadline, not yet expired.
      const expired = await this.expire(id).catch(() => undefined);
      if (expired) return expired;
      throw new RelayQuorumError(id, 'needs_people');
    }
    return counted.ok === true ? { ok: true, outcome: record.outcome } : { ok: false, current: record.outcome };
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
    if (result.reason === 'needs_quorum') throw new RelayQuorumError(id, 'needs_people');
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
