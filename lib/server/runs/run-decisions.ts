// The human's side of a run: decisions on its relays. A decision is checked against the relay
// (its session, Always Allow's rules and scope) before anything is stored; an approval of a call
// waiting in a run executing here claims the call in the settle statement (lib/relay ApprovalClaim).
import { realpath } from 'node:fs/promises';
import type { AgentRun, ExecutionLog } from '../../agent';
import type { Queries, RelayAccess } from '../../db';
import type { DurableRelayBroker, RelayRequest, RelayResponse, Resolution } from '../../relay';
import type { RunAgents } from '../agents/run-agents';
import { AppError } from '../http/errors';
import { loadPolicy } from '../stores/policy-store';
import { assertScopeAllowed, checkedAlwaysAllow, isAlwaysAllow, type GrantAuthority } from './always-allow';
import { assertQuorumRole, checkedEdit } from './decision-checks';
import { editedRelay } from './edited-relay';

/** A run executing in this process. */
export interface LiveRun {
  run: AgentRun;
  /** Tool calls an approval claimed in its settle statement (by tool call id): true if it did. */
  preClaims: Map<string, Promise<boolean>>;
  /** The run's owner (runs.owner never changes): decisions on its relays are checked without a read. */
  owner: string | null;
  /** Stopped here without ending: what it emitted before is stored, nothing after. */
  detached: boolean;
  /** Settles when its pump has stopped (its last write done). */
  pumped: Promise<void>;
}

export interface DecisionInput {
  sessionId: string;
  response: RelayResponse;
  decidedBy: string;
  authority?: GrantAuthority;
}

export interface RunDecisionsDeps {
  q: Queries;
  broker: DurableRelayBroker;
  workspace: string;
  agents: Pick<RunAgents, 'waitingRelay'>;
  /** The runs executing in this process (the manager's map). */
  live: ReadonlyMap<string, LiveRun>;
  /** This instance's lease fence (several instances). */
  fence: () => { leaseOwner?: string };
}

export class RunDecisions {
  private realWorkspace: Promise<string> | undefined;

  constructor(private readonly deps: RunDecisionsDeps) {}

  /**
   * A human decision. The relay must belong to the session; a second answer is a 409 with the
   * first. Always Allow is judged as in decideChecked (by default as a decider without `grants:manage`).
   */
  async resolve(relayId: string, input: DecisionInput) {
    const relay = await this.deps.q.relays.getRelay({ id: relayId });
    if (!relay || relay.sessionId !== input.sessionId)
      throw new AppError('not_found:relay', 404, 'No such relay in this session');
    const response = isAlwaysAllow(input.response)
      ? await this.checkAlwaysAllow(relayId, input.response, input.authority ?? { mayManageGrants: false })
      : input.response;
    return this.deps.broker.resolve(relayId, response, input.decidedBy);
  }

  /**
   * What a decision on a relay is checked against (its session, its run and the run's owner): from
   * memory when the relay waits in this process (the facts never change, so the decision path reads
   * nothing before its settle), else one joined read. Undefined for an unknown relay.
   */
  async relayAccess(relayId: string): Promise<RelayAccess | undefined> {
    const waiting = this.deps.agents.waitingRelay(relayId);
    const entry = waiting ? this.deps.live.get(waiting.runId) : undefined;
    if (waiting && entry) return { sessionId: waiting.sessionId, runId: waiting.runId, owner: entry.owner };
    return this.deps.q.relays.getRelayAccess({ id: relayId });
  }

  /**
   * A human decision on a relay the caller has already checked (session and access): no re-read.
   * An approval of a call that waits in a run executing here also claims the call in the settle
   * statement, so the tool starts without a statement of its own (at most once still holds: the
   * claim is made only by the winning settle, and the run's own claim finds it).
   */
  async decideChecked(
    relayId: string,
    response: RelayResponse,
    decidedBy: string,
    authority: GrantAuthority = { mayManageGrants: false },
    /** A person's role: their approval counts toward a relay that needs several (none: approve-all, which never counts). */
    role?: string,
  ): Promise<Resolution> {
    // Edits, roles and Always Allow are judged before anything is stored: a refused one leaves the relay pending.
    let relay: RelayRequest | undefined;
    if (response.approved) {
      relay = await this.pendingRequest(relayId);
      if (relay && role !== undefined) assertQuorumRole(response, relay, role);
      if (relay && response.params !== undefined)
        response = checkedEdit(response, relay, (await loadPolicy(this.deps.q)).policy, await this.workspaceRoot());
    }
    if (isAlwaysAllow(response)) response = await this.checkAlwaysAllow(relayId, response, authority, relay);
    const waiting = response.approved ? this.deps.agents.waitingRelay(relayId) : undefined;
    const entry = waiting ? this.deps.live.get(waiting.runId) : undefined;
    // Only a relay whose rule names approvers takes the counting path (the plain settle refuses to approve it).
    const counted = role !== undefined && relay?.approvals !== undefined;
    const decide = (claim?: Parameters<DurableRelayBroker['resolve']>[3]): Promise<Resolution> =>
      !counted
        ? this.deps.broker
            .resolve(relayId, response, decidedBy, claim)
            .then((outcome) => ({ status: 'decided', outcome }))
        : this.deps.broker.decide(relayId, response, { user: decidedBy, role: role! }, claim);
    // One claim per call: a second concurrent approval settles without one (and loses the settle).
    if (!waiting || !entry || entry.detached || entry.preClaims.has(waiting.toolCallId)) return decide();
    let told!: (claimed: boolean) => void;
    entry.preClaims.set(waiting.toolCallId, new Promise<boolean>((resolve) => (told = resolve)));
    const { leaseOwner } = this.deps.fence();
    try {
      return await decide({
        toolCallId: waiting.toolCallId,
        ...(leaseOwner === undefined ? {} : { leaseOwner }),
        done: told,
      });
    } finally {
      told(false); // no-op once the store has told
    }
  }

  /** The request of a relay that is still pending: from memory when it waits here, else one read (undefined otherwise). */
  private async pendingRequest(relayId: string): Promise<RelayRequest | undefined> {
    const waiting = this.deps.agents.waitingRelay(relayId);
    if (waiting) return waiting;
    const row = await this.deps.q.relays.getRelay({ id: relayId });
    // Unknown or already decided: the broker answers (404, or 409 with the first decision).
    return row?.status === 'pending' ? row.request : undefined;
  }

  /** The response with its Always Allow rules checked against the relay (always-allow.ts); 403/422 when refused. */
  private async checkAlwaysAllow(
    relayId: string,
    response: RelayResponse,
    authority: GrantAuthority,
    known?: RelayRequest,
  ): Promise<RelayResponse> {
    assertScopeAllowed(response, authority);
    const relay = known ?? (await this.pendingRequest(relayId));
    // Unknown or already decided: the broker answers (404, or 409 with the first decision).
    if (!relay) return response;
    const root = await this.workspaceRoot();
    return checkedAlwaysAllow(
      response,
      // An edited call: Always Allow is judged for the call that runs.
      response.params === undefined ? relay : editedRelay(relay, response.params, root),
      authority,
      root,
      (await loadPolicy(this.deps.q)).policy,
    );
  }

  /** The workspace as the tools see it (a real path), which path rules resolve against. */
  private workspaceRoot(): Promise<string> {
    this.realWorkspace ??= realpath(this.deps.workspace).catch(() => this.deps.workspace);
    return this.realWorkspace;
  }
}

/**
 * The execution log of the runs executing here (at most once, durably): a call an approval already
 * claimed in its settle statement is found without a statement; any other is claimed under the
 * lease. A write cut off (lease lost, database unreachable) detaches the run (`cutOff`).
 */
export function executionLog({
  q,
  live,
  fence,
  cutOff,
}: Pick<RunDecisionsDeps, 'q' | 'live' | 'fence'> & { cutOff(runId: string, error: unknown): void }): ExecutionLog {
  return {
    claim: async ({ runId, toolCallId }) => {
      const entry = live.get(runId);
      const pre = entry?.preClaims.get(toolCallId);
      if (pre) {
        entry!.preClaims.delete(toolCallId);
        // Claimed by the approval's own statement (lease held, nobody claimed it before).
        if (await pre) return true;
      }
      try {
        return await q.toolExecutions.claimToolExecution({ runId, toolCallId, ...fence() });
      } catch (error) {
        cutOff(runId, error);
        throw error;
      }
    },
    finish: async ({ runId, toolCallId, output, isError }) => {
      await q.toolExecutions.finishToolExecution({ runId, toolCallId, result: { output, isError } });
    },
  };
}
