// Pending approvals ("relays"): what the agent loop registers when the policy says ask, and what a
// human's decision looks like. The broker interface is what the server backs with the database;
// nothing here knows about HTTP, SQL or React.
import type { RelayOutcome, RelayProgress, RelayRecord, RelayRequest, RelayResponse } from '../contract';

// The shapes are the contract's (lib/contract/relay.ts): the same records cross every boundary.
export type {
  RelayApproval,
  RelayOutcome,
  RelayProgress,
  RelayOutcomeStatus,
  RelayRecord,
  RelayRequest,
  RelayResponse,
  RelayStatus,
} from '../contract';

/**
 * What an approval may claim in the statement that stores it: the tool call it lets run, so the
 * executor starts it without a claim of its own (the server, for a run it executes; a store that
 * cannot claim tells `done(false)` and the executor claims as usual).
 */
export interface ApprovalClaim {
  toolCallId: string;
  /** Several instances: claimed only while this instance holds the run's lease. */
  leaseOwner?: string;
  /** Told exactly once, before the settle returns and before any waiter wakes: whether it claimed the call. */
  done(claimed: boolean): void;
}

/**
 * A person approving a relay that needs several approvers (the server checked their role against
 * the rule's). Only such approvals count toward the quorum.
 */
export interface Approver {
  user: string;
  role: string;
}

/** `partial`: the approval counted and the relay is still pending (more approvals needed). */
export type Resolution = { status: 'decided'; outcome: RelayOutcome } | { status: 'partial'; progress: RelayProgress };

export interface RelayFilter {
  runId?: string;
  sessionId?: string;
}

/**
 * Registers relays, awaits their decisions with a deadline, resolves each exactly once. A durable,
 * multi-instance implementation keeps the same contract: `resolve` is a conditional update, and
 * `wait` settles when the stored outcome appears, wherever it was written.
 */
export interface RelayBroker {
  register(request: RelayRequest, options?: { outside?: boolean }): Promise<void>;
  /** Settles with the outcome: a decision, `expired` at `expiresAt`, or `cancelled`. Never rejects on abort: an abort cancels the relay. */
  wait(
    id: string,
    options?: { signal?: AbortSignal; onProgress?: (progress: RelayProgress) => void },
  ): Promise<RelayOutcome>;
  /**
   * Records a decision. Throws RelayNotFoundError, or RelayAlreadyResolvedError carrying the first
   * outcome. An approval that wins also claims `claim`'s call where the store can (RelayStore.settle).
   */
  resolve(id: string, response: RelayResponse, decidedBy?: string, claim?: ApprovalClaim): Promise<RelayOutcome>;
  /**
   * A person's decision, which counts toward a relay that needs several approvers: `partial` while
   * more are needed. Throws as `resolve`, and RelayQuorumError for a second approval by the same person.
   */
  decide(id: string, response: RelayResponse, approver: Approver, claim?: ApprovalClaim): Promise<Resolution>;
  get(id: string): Promise<RelayRecord | undefined>;
  listPending(filter?: RelayFilter): Promise<RelayRequest[]>;
  /** Cancels every pending relay of a run (each becomes a denial). Returns how many. */
  cancelRun(runId: string, reason?: string): Promise<number>;
}
