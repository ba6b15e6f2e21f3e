// What a durable broker needs from storage. The database implements it with conditional updates
// (`... WHERE status = 'pending'`), which is what makes "exactly once" hold across requests,
// processes and instances; the broker only adds waiting and deadlines on top.
import type {
  ApprovalClaim,
  Approver,
  RelayFilter,
  RelayOutcome,
  RelayProgress,
  RelayRecord,
  RelayRequest,
} from './types';

export type ResolveResult =
  | { ok: true; outcome: RelayOutcome }
  | { ok: false; current: RelayOutcome }
  /** A counted approval of a relay that needs more (only with `approver`). */
  | { ok: 'partial'; progress: RelayProgress };

export interface RelayStore {
  /** `outside`: the relay of an outside agent's run, which no lease fences (nobody executes it here). */
  insert(request: RelayRequest, options?: { outside?: boolean }): Promise<void>;
  get(id: string): Promise<RelayRecord | undefined>;
  /**
   * Records the outcome if the relay is still pending (and, for a decision, not past its
   * deadline: then it is recorded as expired and reported as the current outcome).
   * Exactly one caller ever gets `ok: true`. Throws RelayNotFoundError for unknown ids.
   * `claim`: an approval that wins also claims the call in the same write, if the store can;
   * `claim.done` is told either way before this returns (or throws).
   * A relay whose rule names approvers (`request.approvals`, one or several) is approved only by
   * approvals with `approver`, counted per distinct person (`partial` until enough): an approval
   * without one throws RelayQuorumError('needs_people'), a second by the same person
   * RelayQuorumError('same_approver'). An approval carrying `response.params` (an edit) resets
   * the count to this one. A denial denies whoever gives it.
   */
  settle(id: string, outcome: RelayOutcome, claim?: ApprovalClaim, approver?: Approver): Promise<ResolveResult>;
  listPending(filter?: RelayFilter): Promise<RelayRequest[]>;
  /** Ids of the pending relays of a run. */
  pendingOfRun(runId: string): Promise<string[]>;
}
