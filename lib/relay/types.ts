// Pending approvals ("relays"): what the agent loop registers when the policy says ask, and what a
// human's decision looks like. The broker interface is what the server backs with the database;
// nothing here knows about HTTP, SQL or React.
import type { RelayOutcome, RelayRecord, RelayRequest, RelayResponse } from '../contract';

// The shapes are the contract's (lib/contract/relay.ts): the same records cross every boundary.
export type { RelayOutcome, RelayOutcomeStatus, RelayRecord, RelayRequest, RelayResponse, RelayStatus } from '../contract';

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
  register(request: RelayRequest): Promise<void>;
  /** Settles with the outcome: a decision, `expired` at `expiresAt`, or `cancelled`. Never rejects on abort: an abort cancels the relay. */
  wait(id: string, options?: { signal?: AbortSignal }): Promise<RelayOutcome>;
  /** Records a decision. Throws RelayNotFoundError, or RelayAlreadyResolvedError carrying the first outcome. */
  resolve(id: string, response: RelayResponse, decidedBy?: string): Promise<RelayOutcome>;
  get(id: string): Promise<RelayRecord | undefined>;
  listPending(filter?: RelayFilter): Promise<RelayRequest[]>;
  /** Cancels every pending relay of a run (each becomes a denial). Returns how many. */
  cancelRun(runId: string, reason?: string): Promise<number>;
}
