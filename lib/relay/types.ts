// Pending approvals ("relays"): what the agent loop registers when the policy says ask, and what a
// human's decision looks like. The broker interface is what the server backs with the database;
// nothing here knows about HTTP, SQL or React.
import type { Decision, Risk, Rule } from '../policy';

export type RelayStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'cancelled';

export interface RelayRequest {
  id: string;
  kind: 'permission';
  runId: string;
  sessionId: string;
  /** The agent that made the call, and the chain of agents above it (outermost first). */
  agentId: string;
  parents: string[];
  toolCallId: string;
  tool: string;
  params: Record<string, unknown>;
  risk?: Risk;
  /** Why it asks: the policy's decision, with the rule and explanation. */
  decision: Decision;
  /** The rules "Always Allow" would add (editable by the human). */
  suggestedRules: Rule[];
  /** A diff for file writes and edits. */
  preview?: unknown;
  /** The question as text, e.g. `Run 'bash' with arguments {"command":"ls"}?`. */
  prompt: string;
  createdAt: number;
  /** Epoch ms after which the call is denied with reason "Approval timeout". */
  expiresAt: number;
}

export interface RelayResponse {
  approved: boolean;
  /** Always Allow: add `rule` (or the suggested rules) as grants. */
  always?: boolean;
  reason?: string;
  /** The rule(s) the human edited before confirming Always Allow. */
  rule?: Rule | Rule[];
  /** Who the grant applies to: this session (default) or everyone. */
  scope?: 'session' | 'global';
}

export interface RelayOutcome {
  status: Exclude<RelayStatus, 'pending'>;
  response?: RelayResponse;
  /** For a denial, expiry or cancellation: why. */
  reason?: string;
  decidedBy: string;
  decidedAt: number;
}

export interface RelayRecord {
  request: RelayRequest;
  outcome?: RelayOutcome;
}

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
