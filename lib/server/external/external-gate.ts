// The gate for outside agents (types.ts): the same policy, grants and relays as Gatehouse's own
// agent, for a call whose tool runs elsewhere. A call is decided, recorded in its session's run
// (tool_call, and on ask relay / relay_resolved, audited in the same statements), and on ask held
// until a human decides in Gatehouse, its deadline passes, or the caller's request ends (then the
// relay is cancelled: nothing can run on an answer nobody receives). On embedded PGlite a call
// decided at once is answered before its record is stored, journaled first (deferred-records.ts).
import { randomUUID } from 'node:crypto';
import {
  builtinTools,
  notifyObserver,
  suggestAlwaysAllow,
  type DecisionObserver,
  type GrantStore,
  type ToolDefinition,
} from '../../agent';
import { canonicalJson } from '../../agent/tools/mcp/pin';
import type { RelayPlace, RunEvent } from '../../contract';
import { RunNotFoundError, type ChangeCounter, type Queries, type RunRow } from '../../db';
import {
  approvalRequirement,
  evaluate,
  type CompiledPolicy,
  type Decision,
  type EvaluationContext,
  type Rule,
  type ToolCall,
} from '../../policy';
import type { DurableRelayBroker, RelayOutcome, RelayRequest } from '../../relay';
import type { RunLog } from '../runs/run-log';
import { isRefusal, UserSlots } from '../user-slots';
import { DecisionInputs, type CompiledVersion } from './decision-inputs';
import { callResultEvent, claimResultOf, type OutsideCallResult } from './call-result';
import { ClaimLedger } from './claim-ledger';
import { auditIds, auditOf, auditSource, deferredAudit } from './outside-audit';
import { DeferredRecords, type HeldRecord, type OutsideRecord } from './deferred-records';
import type { RecordJournal } from './record-journal';
import { grantAlwaysForOutside, type WaitingOutsideCall } from './outside-grants';
import { outsidePreview } from './outside-preview';
import type { AllowedAtOnce, ExternalCall, ExternalDecideOptions, ExternalDecision, ExternalSessionRef } from './types';

export interface ExternalGateDeps {
  q: Queries;
  broker: DurableRelayBroker;
  grants: GrantStore;
  log: RunLog;
  /** The default deadline of a relay (s); a rule's own `timeoutS` and the caller's may shorten it. */
  approvalTimeoutS: number;
  /** How many requests one owner may hold here waiting for a person at once; unset: no cap. */
  maxWaitingPerUser?: number;
  /** Where relative paths resolve when the caller names no workspace. */
  workspace: string;
  /** Watches every decision (the shadow policy monitor), as for the built-in agent. */
  observerFor?: (policy: CompiledPolicy) => DecisionObserver;
  /**
   * The count of policy, grant and run-mode changes, given only where this process alone writes the
   * database (PGlite): then the session's run, the policy and the grants are served from memory
   * until it moves (decision-inputs.ts). Without it each call reads them.
   */
  decisionChanges?: ChangeCounter;
  /**
   * Given only where this process alone writes the database (PGlite): a call decided at once (and
   * not claimed) is answered before its record is stored, the record journaled first
   * (deferred-records.ts; no journal: an in-memory database). Without it each record is stored
   * before the answer.
   */
  deferRecords?: { journal?: RecordJournal<OutsideRecord>; report: (error: Error) => void };
}

/** The longest a claimed call's record waits for its result before it is stored anyway (a slow tool). */
const CLAIM_HOLD_MS = 1_000;
const callKey = (runId: string, toolCallId: string) => `${runId}\u0000${toolCallId}`;

const BUILTIN = new Map(builtinTools.map((tool) => [tool.name, tool]));
/** What the gate needs of a tool: a built-in's own definition, or the caller's word on an outside tool's risk. */
type GatedTool = Pick<ToolDefinition, 'name' | 'risk' | 'paramKinds' | 'derivePermission'>;

export class ExternalGate {
  private readonly inputs: DecisionInputs;
  /** The requests each owner holds here waiting for a person, for maxWaitingPerUser. */
  private readonly waitingByOwner = new UserSlots();
  /** Calls waiting for a human in this process, by relay id: Always Allow settles those it now covers. */
  private readonly waiting = new Map<string, WaitingOutsideCall>();
  private readonly deferred: DeferredRecords | undefined;
  /** Where records are deferred: the execution claims, decided in memory (claim-ledger.ts). */
  private readonly claims: ClaimLedger | undefined;
  /** Claimed calls' records held until their results (`finishCall`) or stored, by run and call id. */
  private readonly heldClaims = new Map<string, HeldRecord>();

  constructor(private readonly deps: ExternalGateDeps) {
    this.inputs = new DecisionInputs(deps.q, deps.grants, deps.decisionChanges);
    if (deps.deferRecords) {
      const deferred = new DeferredRecords(
        deps.deferRecords.journal,
        (record) => this.store(record),
        deps.deferRecords.report,
      );
      this.deferred = deferred;
      this.claims = new ClaimLedger({
        load: (runId) => deps.q.toolExecutions.listClaimedCallIds({ runId }),
        store: (runId, toolCallId) => deps.q.toolExecutions.claimToolExecution({ runId, toolCallId }),
        storing: () => deferred.busy(),
      });
    }
  }

  /**
   * Claims the execution of a call decided earlier (a person's approval), stored before it returns:
   * true only for the first claimer of (run, call id).
   */
  claim(runId: string, toolCallId: string): Promise<boolean> {
    return this.claims
      ? this.claims.claimStored(runId, toolCallId)
      : this.deps.q.toolExecutions.claimToolExecution({ runId, toolCallId });
  }

  /**
   * At start, before the first call: stores the records of calls a stopped process answered and
   * did not store (its journal). Returns how many.
   */
  async recoverRecords(): Promise<number> {
    return this.deferred?.recover((record) => this.isStored(record)) ?? 0;
  }

  private async isStored(record: OutsideRecord): Promise<boolean> {
    const { q } = this.deps;
    if (!record.finish) return q.audit.anyAuditStored(auditIds(record));
    const execution = await q.toolExecutions.getToolExecution({
      runId: record.runId,
      toolCallId: record.finish.toolCallId,
    });
    // Finished in the statement that stored its result (or never claimed: nothing to finish).
    return execution?.status !== 'claimed';
  }

  decide(ref: ExternalSessionRef, call: ExternalCall, options: ExternalDecideOptions): Promise<ExternalDecision> {
    return this.decideCall(ref, call, options, false) as Promise<ExternalDecision>;
  }

  /**
   * The express lane's decision (mcp-server/express-lane.ts): a call the policy allows at once,
   * without a grant or rule to consume, is decided, recorded and claimed as `decide` does with
   * `claim`; anything else gives undefined before its decision is observed or recorded (the
   * session's run may have been opened, as the usual path opens it), so the caller can hand the
   * call to the usual path, which decides it again from the start. Given at once, not as a promise,
   * when all it reads is in memory (the run, the policy, the grants, the run's claims) and the
   * record is journaled: the same decision, record and claim, without a turn of waiting.
   */
  decideAtOnce(
    ref: ExternalSessionRef,
    call: ExternalCall,
    options: Pick<ExternalDecideOptions, 'signal'>,
  ): AllowedAtOnce | undefined | Promise<AllowedAtOnce | undefined> {
    const inputs = this.deferred && this.claims ? this.inputs.now(ref) : undefined;
    if (inputs && this.claims!.claimsKnown(inputs.run.id)) return this.allowedAtOnce(ref, call, inputs);
    return this.decideCall(ref, call, { ...options, claim: true }, true) as Promise<AllowedAtOnce | undefined>;
  }

  /** decideAtOnce from inputs in memory, where records are deferred and the run's claims are read. */
  private allowedAtOnce(
    ref: ExternalSessionRef,
    call: ExternalCall,
    { run, compiled, grants }: { run: RunRow; compiled: CompiledVersion; grants: Rule[] },
  ): AllowedAtOnce | undefined | Promise<AllowedAtOnce | undefined> {
    const judged = this.judge(ref, call, run, compiled, grants);
    const { decision, toolCallId } = judged;
    if (decision.action !== 'allow' || decision.consumes) return undefined;
    const callEvent = this.observed(ref, run, compiled, judged);
    const audited = { version: compiled.version, rules: compiled.policy.policy.rules.length };
    // Known: decideAtOnce saw the run's claims read, in this same turn.
    const claimed = this.claims!.claimNow(run.id, toolCallId)!;
    const recorded = this.recordClaimed(run, [callEvent], audited, toolCallId, claimed);
    const allowed = (won: boolean): AllowedAtOnce => ({ claimed: won, ...allowedDecision(run, call, decision) });
    return typeof recorded === 'boolean' ? allowed(recorded) : recorded.then(allowed);
  }

  private async decideCall(
    ref: ExternalSessionRef,
    call: ExternalCall,
    options: ExternalDecideOptions,
    atOnceOnly: boolean,
  ): Promise<ExternalDecision | undefined> {
    const { q } = this.deps;
    const run = await this.inputs.run(ref);
    const compiled = await this.inputs.policy();
    const grants = await this.inputs.grants(run.sessionId);
    const judged = this.judge(ref, call, run, compiled, grants);
    const { decision, toolCallId, tool, workspace } = judged;
    if (atOnceOnly && (decision.action !== 'allow' || decision.consumes)) return undefined;
    const callEvent = this.observed(ref, run, compiled, judged);
    const audited = { version: compiled.version, rules: compiled.policy.policy.rules.length };
    const origin = { runId: run.id, agentId: ref.agent, parents: [] as string[] };
    // Handed back to the caller's own prompt (`?ask=claude`) only when nobody is named to approve:
    // a rule's approvers are people in Gatehouse, never whoever sits at the agent's terminal.
    const handBack = options.waitForHuman === false && !this.namesApprovers(compiled, decision, judged);
    if (decision.action !== 'ask' || handBack) {
      // An allow-once grant allows one call: when another call used it up first, this one is
      // decided again without it (the consumption moved the count, so the grants are read anew).
      const used = decision.action === 'allow' ? (decision.consumes?.grants ?? []) : [];
      if (used.length > 0) {
        const consumed = await this.deps.grants.consume(run.sessionId, used.map((i) => grants[i]!).filter(Boolean));
        if (consumed === false) return this.decideCall(ref, call, options, atOnceOnly);
      }
      const events: RunEvent[] = [callEvent];
      if (decision.action === 'deny') events.push(denied(origin, toolCallId, call.tool, decision.explanation));
      const claim = decision.action === 'allow' && options.claim === true;
      const claimed = claim
        ? await this.recordClaiming(run, events, audited, toolCallId)
        : (await this.record(run, events, audited), false);
      if (decision.action === 'allow')
        return { ...(claim ? { claimed } : {}), ...allowedDecision(run, call, decision) };
      return { runId: run.id, decision: decision.action, reason: decision.explanation };
    }
    // A retried call that asked (the same outside call id, maybe on another instance) gets the same
    // relay and its decision; calls the policy decides at once are simply decided again.
    if (call.callId) {
      const earlier = await q.relays.getRelayOfCall({ runId: run.id, toolCallId });
      // Only the very same call: a decision never carries over to another call that reuses the id.
      if (earlier && !sameCall(earlier.request, call, this.placeOf(call)))
        return {
          runId: run.id,
          decision: 'deny',
          reason: `The call id ${toolCallId} was already used for another call`,
        };
      // Decided already: answered at once. Still pending: this request waits for it too.
      if (earlier && earlier.status !== 'pending') return this.answerRelay(run, earlier.request, options, call);
      if (earlier)
        return this.holdingPlace(
          ref.owner,
          async (reason) => ({ runId: run.id, decision: 'deny', reason }),
          () => this.answerRelay(run, earlier.request, options, call),
        );
    }
    return this.holdingPlace(
      ref.owner,
      async (reason) => {
        await this.record(run, [callEvent, denied(origin, toolCallId, call.tool, reason)], audited);
        return { runId: run.id, decision: 'deny', reason };
      },
      async () => {
        const request = await this.relayFor(run, ref, call, tool, toolCallId, decision, workspace, options);
        await this.deps.broker.register(request, { outside: true });
        await this.append(run, [callEvent, { ...request, type: 'relay' }], audited, { to: 'waiting' });
        return this.answerRelay(run, request, options, call, audited);
      },
    );
  }

  /**
   * Holds the caller's request while a person decides (`wait`), within the owner's cap of requests
   * held here (maxWaitingPerUser): past it the call is `refuse`d at once, with no relay raised, so
   * one user cannot tie up the server's memory and sockets or flood the approvers' inbox.
   */
  private async holdingPlace(
    owner: string,
    refuse: (reason: string) => Promise<ExternalDecision>,
    wait: () => Promise<ExternalDecision>,
  ): Promise<ExternalDecision> {
    const cap = this.deps.maxWaitingPerUser ?? Infinity;
    const place = this.waitingByOwner.tryTake(owner, cap);
    if (isRefusal(place))
      return refuse(
        `Not asked: ${cap} calls of this user are already waiting for a person's decision on this server (GATEHOUSE_MAX_WAITING_PER_USER). Wait for those decisions, then try again.`,
      );
    try {
      return await wait();
    } finally {
      place.release();
    }
  }

  /** Requests the owner holds here waiting for a person (tests). */
  waitingOf(owner: string): number {
    return this.waitingByOwner.heldBy(owner);
  }

  /**
   * What the policy needs to know of the call besides the run's mode and grants: its tool's risk
   * and param kinds, the folder a search reads below, the workspace and home `~/` means. The same
   * for its decision, its relay's approvers and, while it waits, Always Allow's check of it.
   */
  private callContext(call: ExternalCall): EvaluationContext {
    const { editable: _editable, ...place } = this.placeOf(call);
    return { risk: toolOf(call).risk, ...place };
  }

  /** Where the call acts (its relay keeps it: `place`), all of callContext but the risk. */
  private placeOf(call: ExternalCall): RelayPlace {
    const { paramKinds } = toolOf(call);
    return {
      ...(paramKinds ? { paramKinds } : {}),
      ...(call.searchRoot ? { searchRoot: call.searchRoot } : {}),
      workspaceRoot: call.workspace ?? this.deps.workspace,
      ...(call.homeDir ? { homeDir: call.homeDir } : {}),
      ...(call.editable !== undefined ? { editable: call.editable } : {}),
    };
  }

  /** Whether an asking call's rules name who must approve it (approvalRequirement, as its relay would carry). */
  private namesApprovers(
    compiled: CompiledVersion,
    decision: Decision,
    { policyCall, context }: { policyCall: ToolCall; context: EvaluationContext },
  ): boolean {
    return (
      decision.action === 'ask' && approvalRequirement(compiled.policy, decision, policyCall, context) !== undefined
    );
  }

  /** The call decided against the inputs read (nothing observed or recorded yet). */
  private judge(ref: ExternalSessionRef, call: ExternalCall, run: RunRow, compiled: CompiledVersion, grants: Rule[]) {
    const toolCallId = call.callId ?? randomUUID();
    const tool = toolOf(call);
    const workspace = call.workspace ?? this.deps.workspace;
    const policyCall: ToolCall = { tool: call.tool, params: call.params, agent: ref.agent };
    const context = { mode: run.mode ?? 'default', grants, ...this.callContext(call) };
    const decision = evaluate(compiled.policy, policyCall, context);
    return { toolCallId, tool, workspace, policyCall, context, decision };
  }

  /** Shows the decision to the policy's observer (the shadow monitor); its `tool_call` event. */
  private observed(
    ref: ExternalSessionRef,
    run: RunRow,
    { policy }: CompiledVersion,
    { toolCallId, policyCall, context, decision }: ReturnType<ExternalGate['judge']>,
  ): RunEvent {
    notifyObserver(this.deps.observerFor?.(policy), () => ({
      runId: run.id,
      sessionId: run.sessionId,
      toolCallId,
      agentId: ref.agent,
      call: policyCall,
      context,
      decision,
      policy: policy.policy,
      adjust: (d) => d,
    }));
    return {
      type: 'tool_call',
      runId: run.id,
      agentId: ref.agent,
      parents: [],
      toolCallId,
      name: policyCall.tool,
      params: policyCall.params,
      decision,
    };
  }

  /** Stores every deferred record now (held claims too) and resolves once all are stored or reported. */
  async flushRecords(): Promise<void> {
    await this.deferred?.drain();
  }

  /**
   * Graceful shutdown: the requests held here are about to end, so their relays are cancelled now
   * (a denial, recorded), never left for a retry to find approved by nobody who could be told.
   */
  async shutdown(): Promise<void> {
    await this.deferred?.drain();
    await Promise.all(
      [...this.waiting.keys()].map((id) =>
        this.deps.broker.cancel(id, 'Gatehouse shut down before a decision').catch(() => false),
      ),
    );
  }

  /**
   * At start with one instance: no request can still be held for an outside relay (the process
   * that held it is gone), so each pending one is cancelled and its run records why.
   */
  async cancelOrphans(): Promise<number> {
    let count = 0;
    for (const row of await this.deps.q.relays.listPendingOutsideRelays()) {
      const reason = 'Gatehouse restarted before a decision';
      if (!(await this.deps.broker.cancel(row.id, reason))) continue;
      count++;
      const run = await this.deps.q.runs.getRun({ id: row.runId });
      const outcome: RelayOutcome = { status: 'cancelled', reason, decidedBy: 'system', decidedAt: Date.now() };
      if (run) await this.settled(run, row.request, outcome, await this.audited());
    }
    return count;
  }

  private async audited(): Promise<{ version: number; rules: number }> {
    const { version, policy } = await this.inputs.policy();
    return { version, rules: policy.policy.rules.length };
  }

  /**
   * Records the result of a call Gatehouse ran for an outside caller (its `tool_result` event) and
   * finishes its claim, in one statement: deferred past the answer where configured (journaled
   * now), else stored before returning. The claim keeps the result without its output, which the
   * event holds (call-result.ts).
   */
  async finishCall(runId: string, toolCallId: string, result: OutsideCallResult): Promise<void> {
    const event = callResultEvent(runId, toolCallId, result);
    const finish = { toolCallId, result: claimResultOf(result) };
    const key = callKey(runId, toolCallId);
    const held = this.heldClaims.get(key);
    this.heldClaims.delete(key);
    const record = { runId, events: [event], audit: [], finish };
    // Still held (the usual case): stored with its claim, as one statement.
    if (held?.releaseWith(record)) return;
    held?.release();
    if (this.deferred?.defer(record, held?.stored)) return;
    await held?.stored;
    await this.deps.log.append(runId, [event], { finishExecution: finish });
  }

  /** Records what an outside tool returned (a tool Gatehouse ran for an MCP client), for the transcript. */
  async recordResult(runId: string, callId: string, result: OutsideCallResult) {
    const run = await this.deps.q.runs.getRun({ id: runId });
    if (!run) return;
    await this.deps.log.append(runId, [callResultEvent(runId, callId, result)]);
  }

  private async relayFor(
    run: RunRow,
    ref: ExternalSessionRef,
    call: ExternalCall,
    tool: GatedTool,
    toolCallId: string,
    decision: Decision,
    workspace: string,
    options: ExternalDecideOptions,
  ): Promise<RelayRequest> {
    const { policy } = await this.inputs.policy();
    const env = { workspace };
    const policyCall: ToolCall = { tool: call.tool, params: call.params, agent: ref.agent };
    const place = this.placeOf(call);
    const { homeDir, searchRoot } = place;
    const suggestion = suggestAlwaysAllow(
      policy,
      tool as ToolDefinition,
      call.params,
      policyCall,
      env,
      undefined,
      false,
      {
        ...(homeDir ? { homeDir } : {}),
        ...(searchRoot ? { searchRoot } : {}),
      },
    );
    // Never from the server's files: the call alone (outside-preview.ts).
    const preview = outsidePreview(call.tool, call.params);
    const rule = decision.rule ? policy.policy.rules[decision.rule.index] : undefined;
    const timeoutS = Math.min(options.timeoutS ?? Infinity, rule?.timeoutS ?? this.deps.approvalTimeoutS);
    const now = Date.now();
    // A rule that names approvers needs them for outside agents' calls too (every such rule that
    // matches, as the call was judged: judge()).
    const approvals = approvalRequirement(policy, decision, policyCall, this.callContext(call));
    return {
      ...(approvals ? { approvals } : {}),
      id: randomUUID(),
      kind: 'permission',
      runId: run.id,
      sessionId: run.sessionId,
      agentId: ref.agent,
      parents: [],
      toolCallId,
      tool: call.tool,
      params: call.params,
      risk: tool.risk,
      decision,
      ...suggestion,
      ...(preview ? { preview } : {}),
      // Where it acts: an edit and Always Allow are judged there, on any instance.
      place,
      ...(call.original ? { original: call.original } : {}),
      prompt: `Allow ${ref.agent} to run '${call.tool}' with arguments ${JSON.stringify(call.params)}?`,
      createdAt: now,
      expiresAt: now + timeoutS * 1000,
    };
  }

  /**
   * Waits for the relay's outcome while the caller's request lasts, records it, and answers. The
   * request ending first cancels the relay (a denial, audited as such): an approval nobody receives
   * must not be left standing for a retry to pick up as if a human had seen it.
   */
  private async answerRelay(
    run: RunRow,
    request: RelayRequest,
    options: ExternalDecideOptions,
    call: ExternalCall,
    audited?: { version: number; rules: number },
  ): Promise<ExternalDecision> {
    const { broker } = this.deps;
    options.onRelay?.(request.id);
    const onAbort = () =>
      void broker.cancel(request.id, 'The agent stopped waiting for the decision').catch(() => undefined);
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
    const entry: WaitingOutsideCall = { request };
    this.waiting.set(request.id, entry);
    let outcome: RelayOutcome;
    try {
      outcome = await broker.wait(request.id);
    } finally {
      this.waiting.delete(request.id);
      options.signal.removeEventListener('abort', onAbort);
    }
    if (audited) await this.settled(run, request, outcome, audited);
    const base = { runId: run.id, relayId: request.id };
    if (outcome.status !== 'approved') return { ...base, decision: 'deny', reason: outcome.reason ?? 'Denied' };
    const edited = (outcome.response as { params?: Record<string, unknown> } | undefined)?.params;
    return {
      ...base,
      decision: 'allow',
      reason:
        outcome.response?.reason?.trim() ||
        `Approved by ${outcome.decidedBy === 'grant' ? 'an "always allow" grant' : 'a person in Gatehouse'}`,
      params: edited ?? request.params,
      ...(edited ? { edited: true as const } : {}),
      decidedBy: outcome.decidedBy,
    };
  }

  /** Always Allow's grants, then relay_resolved (and the refusal, for a denial) with the run back to running. */
  private async settled(
    run: RunRow,
    request: RelayRequest,
    outcome: RelayOutcome,
    audited: { version: number; rules: number },
  ) {
    if (outcome.status === 'approved' && outcome.response?.always)
      await grantAlwaysForOutside(this.deps, request, outcome, this.waiting);
    const origin = { runId: run.id, agentId: request.agentId, parents: [] as string[] };
    const events: RunEvent[] = [
      {
        type: 'relay_resolved',
        ...origin,
        relayId: request.id,
        toolCallId: request.toolCallId,
        status: outcome.status,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
        decidedBy: outcome.decidedBy,
        always: outcome.response?.always === true,
        ...(outcome.response?.always ? { scope: outcome.response.scope ?? 'session' } : {}),
      },
    ];
    if (outcome.status !== 'approved')
      events.push(denied(origin, request.toolCallId, request.tool, outcome.reason ?? 'Denied'));
    const others = await this.deps.q.relays.listPendingRelays({ runId: run.id });
    const status = others.length === 0 ? { to: 'running' as const, ifStatus: ['waiting' as const] } : undefined;
    await this.append(run, events, audited, status, request);
  }

  /**
   * Records a call decided at once: deferred past the answer where configured (journaled now),
   * else stored before returning.
   */
  private async record(run: RunRow, events: RunEvent[], policy: { version: number; rules: number }): Promise<void> {
    if (this.deferred?.defer(deferredRecord(run, events, policy))) return;
    await this.deps.log.append(run.id, events, { audit: auditOf(run, events, policy) });
  }

  /**
   * Records an allowed call with its execution claim; true when this call won the claim. Where
   * records are deferred the claim is won in memory and stored with the record after the answer
   * (journaled now), so the tool starts at once; else the one statement decides it.
   */
  private async recordClaiming(
    run: RunRow,
    events: RunEvent[],
    policy: { version: number; rules: number },
    toolCallId: string,
  ): Promise<boolean> {
    if (this.deferred && this.claims)
      return this.recordClaimed(run, events, policy, toolCallId, await this.claims.claim(run.id, toolCallId));
    return this.append(run, events, policy, undefined, undefined, toolCallId);
  }

  /**
   * Where records are deferred: records a call whose claim the ledger decided (`claimed`), journaled
   * and held until its result; the answer at once when journaled, else once stored.
   */
  private recordClaimed(
    run: RunRow,
    events: RunEvent[],
    policy: { version: number; rules: number },
    toolCallId: string,
    claimed: boolean,
  ): boolean | Promise<boolean> {
    const record = deferredRecord(run, events, policy);
    if (!claimed && this.deferred!.defer(record)) return false;
    // Held until the result, so the claim and the result are stored after the answer, in order
    // (while the tool runs the statement would hold up the tool's answer on this thread).
    const held = claimed ? this.deferred!.hold({ ...record, claim: toolCallId }, CLAIM_HOLD_MS) : undefined;
    if (held) {
      const key = callKey(run.id, toolCallId);
      this.heldClaims.set(key, held);
      // Stored without its result (a slow tool, a call that never finishes): nothing left to hold.
      // Kept when it could not be stored: its result must then wait in the journal too.
      void held.stored.then((stored) => stored && this.heldClaims.get(key) === held && this.heldClaims.delete(key));
      return true;
    }
    // Not journaled: stored now, where the database has the last word on the claim.
    if (!claimed)
      return this.deps.log.append(run.id, events, { audit: auditOf(run, events, policy) }).then(() => false);
    return this.append(run, events, policy, undefined, undefined, toolCallId);
  }

  /** Stores a deferred record; a run removed meanwhile keeps its audit rows at least. */
  private async store(record: OutsideRecord): Promise<void> {
    const audit = [
      ...record.audit.map((row) => ({ ...row, at: new Date(row.at) })),
      ...(record.auditFrom ? deferredAudit(record.auditFrom, record.events) : []),
    ];
    try {
      const claimed = await this.deps.log.appendClaiming(record.runId, record.events, {
        audit,
        ...(record.finish ? { finishExecution: record.finish } : {}),
        ...(record.claim ? { claimExecution: { toolCallId: record.claim } } : {}),
      });
      // The ledger gave this claim to this call, so nobody can hold it: say so if it happens.
      if (record.claim && !claimed)
        this.deps.deferRecords?.report(
          new Error(`the claim of ${record.claim} in run ${record.runId} was already stored (claimed twice?)`),
        );
    } catch (error) {
      if (!(error instanceof RunNotFoundError)) throw error;
      for (const row of audit) await this.deps.q.audit.recordAudit(row);
    }
  }

  private async append(
    run: RunRow,
    events: RunEvent[],
    policy: { version: number; rules: number },
    status?: { to: 'running' | 'waiting'; ifStatus?: ('running' | 'waiting')[] },
    asked?: RelayRequest,
    claimCall?: string,
  ): Promise<boolean> {
    const audit = auditOf(run, events, policy, asked);
    return this.deps.log.appendClaiming(run.id, events, {
      audit,
      ...(status ? { status } : {}),
      ...(claimCall ? { claimExecution: { toolCallId: claimCall } } : {}),
    });
  }
}

/** An allowed call's answer (without its claim). */
function allowedDecision(
  run: RunRow,
  call: ExternalCall,
  decision: Decision,
): Extract<ExternalDecision, { decision: 'allow' }> {
  return {
    runId: run.id,
    decision: 'allow',
    reason: decision.explanation,
    params: call.params,
    decidedBy: decision.grant ? 'grant' : 'policy',
  };
}

/** A record answered before it is stored: its audit rows are made when it is (outside-audit.ts). */
function deferredRecord(run: RunRow, events: RunEvent[], policy: { version: number; rules: number }): OutsideRecord {
  return { runId: run.id, events, audit: [], auditFrom: auditSource(run, events, policy) };
}

/**
 * The very call the relay was raised for: the same tool with the same parameters (key order aside:
 * the stored request went through jsonb), acting in the same place (cwd, home, search folder).
 */
function sameCall(request: RelayRequest, call: ExternalCall, place: RelayPlace): boolean {
  return (
    request.tool === call.tool &&
    canonicalJson(request.params) === canonicalJson(call.params) &&
    // A relay raised before places were kept (none) is judged by tool and params alone.
    (request.place === undefined || canonicalJson(request.place) === canonicalJson(place))
  );
}

function toolOf(call: ExternalCall): GatedTool {
  const builtin = BUILTIN.get(call.tool);
  if (builtin) return builtin;
  return { name: call.tool, risk: call.risk ?? 'write', ...(call.paramKinds ? { paramKinds: call.paramKinds } : {}) };
}

function denied(
  origin: { runId: string; agentId: string; parents: string[] },
  toolCallId: string,
  tool: string,
  reason: string,
): RunEvent {
  return { type: 'tool_result', ...origin, toolCallId, name: tool, output: reason, isError: true, denied: true };
}
