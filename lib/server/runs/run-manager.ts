// Runs detached from the request that started them. The manager starts and resumes runs (one agent
// shared per policy version, tools and model), hands each to a pump that stores its events before
// anyone hears of them (run-pump.ts, run-log.ts), and takes the human's side: decisions, cancel,
// mode. With several instances on one PostgreSQL (docs/DEPLOY.md) a run executes only where its
// lease is held (run-leases.ts); the other instances reach it through the database and NOTIFY, and
// a copy whose lease was lost, or that is stopped at shutdown, is detached: it stops without
// settling anything, and whoever continues the run finds it as it was.
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { realpath } from 'node:fs/promises';
import type { ModelMessage } from 'ai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { AgentRun, DecisionObserver, GrantStore } from '../../agent';
import { isLiveStatus, LIVE_RUN_STATUSES } from '../../contract';
import { type Queries, type RelayAccess, type RenewedLease, type RunRow } from '../../db';
import type { CompiledPolicy, Mode } from '../../policy';
import type { DurableRelayBroker, RelayRequest, RelayResponse } from '../../relay';
import { assertScopeAllowed, checkedAlwaysAllow, isAlwaysAllow, type GrantAuthority } from './always-allow';
import { AppError, isDatabaseUnreachable } from '../http/errors';
import { selectTools, type ToolSelection } from '../agents/agent-profiles';
import { announceRunChange, listenForRunChanges, RunFollowers, type ClusterOptions } from '../cluster/cluster';
import { loadPolicy, type StoredPolicy } from '../stores/policy-store';
import type { DbRelayStore } from '../stores/relay-store';
import { RunAgents } from '../agents/run-agents';
import { RunLeases } from '../cluster/run-leases';
import { RunLog, type EventListener } from './run-log';
import { isLeaseLost, pumpRun } from './run-pump';
import { cancelStrayRelays, finalReply, reconcileLastStep, resumePointOf } from './run-resume';

export { auditParams } from './run-audit';

export interface StartRunInput {
  messages: ModelMessage[];
  sessionId?: string;
  mode?: Mode;
  /** The seeds' per-run permissions `{ allowlist, deny }`, applied on top of the stored policy. */
  permissions?: unknown;
  owner?: string;
  /** An agent profile name (see agent-profiles.ts); default `general`. */
  agent?: string;
  /** A subset of the profile's tools. */
  tools?: string[];
  /** A model spec (`offline`, `openai:<model>`, ...); default the server's GATEHOUSE_MODEL. */
  model?: string;
}

export interface RunManagerOptions {
  q: Queries;
  broker: DurableRelayBroker;
  /**
   * The broker's store, when it can claim an approved call in the settle statement (DbRelayStore):
   * a decision on a relay that waits here then starts the tool without a claim statement of its own.
   */
  approvalClaims?: Pick<DbRelayStore, 'withApprovalClaim'>;
  grants: GrantStore;
  model: LanguageModelV4;
  modelName: string;
  /** Resolves a model spec a request names (throws a ModelConfigError for a bad one). */
  resolveModel?: (spec: string) => LanguageModelV4;
  workspace: string;
  approvalTimeoutS: number;
  /** Watches the decisions of agents built on a stored policy (the shadow monitor). */
  observerFor?: (policy: CompiledPolicy) => DecisionObserver;
  /**
   * Several instances on one PostgreSQL: runs are executed only under a lease, every write of an
   * executing run is fenced by it, appends are announced on the bus, and streams follow the
   * database for runs executed elsewhere.
   */
  cluster?: ClusterOptions;
}

/** A run executing in this process. */
interface LiveRun {
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

export class RunManager {
  private readonly live = new Map<string, LiveRun>();
  private readonly agents: RunAgents;
  /** Runs being started or resumed here: a concurrent recover() leaves them alone. */
  private readonly claiming = new Set<string>();
  private readonly log: RunLog;
  private readonly followers: RunFollowers | undefined;
  private readonly leases: RunLeases | undefined;
  private readonly unlisten: Promise<(() => void) | undefined> | undefined;
  private stopping = false;
  private realWorkspace: Promise<string> | undefined;
  /**
   * Runs outlive the request that starts them, so they are launched in the async context this
   * manager was created in (at boot), not the request's: every promise and timer of a run would
   * otherwise carry the request's context (Next's request store: the request, its response and
   * socket) and keep it alive for as long as the run waits: about 28 KB per paused run.
   */
  private readonly outsideRequest = AsyncResource.bind(<T>(fn: () => T): T => fn());

  constructor(private readonly options: RunManagerOptions) {
    const { q } = options;
    this.agents = new RunAgents(options, {
      claim: async ({ runId, toolCallId }) => {
        const entry = this.live.get(runId);
        const pre = entry?.preClaims.get(toolCallId);
        if (pre) {
          entry!.preClaims.delete(toolCallId);
          // Claimed by the approval's own statement (lease held, nobody claimed it before).
          if (await pre) return true;
        }
        try {
          return await q.toolExecutions.claimToolExecution({ runId, toolCallId, ...this.fence });
        } catch (error) {
          this.detachIfCutOff(runId, error);
          throw error;
        }
      },
      finish: async ({ runId, toolCallId, output, isError }) => {
        await q.toolExecutions.finishToolExecution({ runId, toolCallId, result: { output, isError } });
      },
    });
    const cluster = options.cluster;
    this.followers = cluster ? new RunFollowers(cluster.bus, (error) => this.report(error)) : undefined;
    this.log = new RunLog(options.q.events, cluster && this.followers ? { bus: cluster.bus, followers: this.followers } : undefined, (error) => this.report(error));
    if (!cluster) return;
    this.leases = new RunLeases(options.q.leases, cluster, {
      executing: () => [...this.live.keys()],
      takeOver: () => this.recover(),
      lost: (runId) => this.detach(runId),
      observed: (lease) => this.apply(lease),
    });
    this.unlisten = listenForRunChanges(cluster.bus, {
      control: (runId) => void this.reread(runId),
      released: (runId) => {
        if (!this.live.has(runId)) this.leases?.takeOverSoon();
      },
    }).catch((error: Error) => {
      this.report(error);
      return undefined;
    });
  }

  /** This instance's lease fence for the writes of the runs it executes (several instances). */
  private get fence(): { leaseOwner?: string } {
    return this.options.cluster ? { leaseOwner: this.options.cluster.owner } : {};
  }

  /** Stops the lease timer and the bus subscriptions (tests); runs executing here go on. */
  async close(): Promise<void> {
    this.leases?.close();
    (await this.unlisten)?.();
    await this.followers?.close();
  }

  /**
   * Graceful shutdown: no new runs; every run executing here is detached (it stops without
   * settling anything, so it stays paused or running in the database) once its last write is done;
   * then its lease is released and announced, so another instance adopts it at once (one instance:
   * the next start resumes it).
   */
  async shutdown(): Promise<string[]> {
    this.stopping = true;
    this.leases?.close();
    const runIds = [...this.live.keys()];
    for (const runId of runIds) this.detach(runId, { letToolsFinish: false });
    await Promise.all(runIds.map((runId) => this.live.get(runId)?.pumped));
    const bus = this.options.cluster?.bus;
    if (this.leases) {
      await this.leases.releaseAll(runIds);
      await Promise.all(runIds.map((runId) => bus && announceRunChange(bus, runId, 'released').catch((error: Error) => this.report(error))));
    }
    await this.close();
    this.log.closeAll();
    return runIds;
  }

  async start(input: StartRunInput): Promise<{ runId: string; sessionId: string }> {
    if (this.stopping) throw new AppError('unavailable:shutting_down', 503, 'This server is shutting down; try again');
    const { q } = this.options;
    const runId = randomUUID();
    const sessionId = input.sessionId ?? randomUUID();
    const selection = selectTools(input.agent, input.tools);
    const modelName = input.model ?? this.options.modelName;
    const model = this.agents.modelFor(modelName);
    const stored = await loadPolicy(q);
    const title = firstUserText(input.messages).slice(0, 120);
    const state = { messages: input.messages, permissions: input.permissions, tools: selection.toolNames };
    await q.runs.createRun({ id: runId, sessionId, mode: input.mode ?? 'default', agent: selection.profile.name, model: modelName, title, owner: input.owner, state });
    this.claiming.add(runId);
    try {
      // Another instance's takeover scan may have adopted the brand-new run first: it executes it.
      if (!(await this.acquireLease(runId))) return { runId, sessionId };
      // Launched outside the request's async context, so the run does not keep the request alive.
      this.outsideRequest(() => {
        const run = this.agents.agentFor(stored, selection, model, modelName).invoke({
          messages: input.messages,
          permissions: input.permissions,
          runId,
          sessionId,
          mode: input.mode,
          checkpoint: this.checkpoint(runId, input.permissions, selection.toolNames),
        });
        this.execute(run, stored, input.owner ?? null);
      });
    } finally {
      this.claiming.delete(runId);
    }
    return { runId, sessionId };
  }

  /**
   * After a restart, and (several instances) periodically: every run that was running or waiting
   * and that nobody executes continues from its last checkpoint. Its relays are still in the
   * database (and their deadlines kept running); a call that had started executing is not run again.
   */
  async recover(): Promise<string[]> {
    if (this.stopping) return [];
    const { q } = this.options;
    const resumed: string[] = [];
    // Several instances: only the runs nobody holds a live lease of (another instance executes the rest).
    const ids = this.options.cluster
      ? (await q.leases.listTakeoverCandidates({ limit: 200 })).map((c) => c.runId)
      : (await Promise.all(LIVE_RUN_STATUSES.map(async (status) => (await q.runs.listRuns({ status, limit: 200 })).items.map((row) => row.id)))).flat();
    for (const id of ids) {
      if (this.live.has(id) || this.claiming.has(id)) continue;
      this.claiming.add(id);
      try {
        if (await this.resume(id)) resumed.push(id);
      } finally {
        this.claiming.delete(id);
      }
    }
    return resumed;
  }

  /** Resumes a run here; false when another instance holds its lease. */
  private async resume(runId: string): Promise<boolean> {
    const { q } = this.options;
    if (!(await this.acquireLease(runId))) return false;
    const row = await q.runs.getRun({ id: runId });
    // Finished meanwhile (between the listing and the lease).
    if (!row || !isLiveStatus(row.status)) {
      await this.releaseLease(runId);
      return false;
    }
    const messages = (row.state.messages ?? []) as ModelMessage[];
    const permissions = row.state.permissions;
    const toolNames = Array.isArray(row.state.tools) ? (row.state.tools as string[]) : undefined;
    // The tools and model the run started with; a profile or model gone since fails the run, not the boot.
    let selection: ToolSelection;
    let model: LanguageModelV4;
    try {
      selection = selectTools(row.agent ?? undefined, toolNames);
      model = this.agents.modelFor(row.model ?? this.options.modelName);
    } catch (error) {
      await q.runs.updateRun({ id: runId, status: 'failed', state: { ...row.state, error: (error as Error).message }, ...this.fence });
      await this.releaseLease(runId);
      return true;
    }
    // The loop had ended (its answer is checkpointed) but its `done` was not stored: finish it,
    // never ask the model again (it would repeat the conversation's last request).
    const reply = finalReply(messages);
    if (reply !== undefined) {
      await reconcileLastStep({ q, append: (events, audit) => this.log.append(runId, events, { audit, ...this.fence }) }, runId, messages);
      await cancelStrayRelays(q, runId, undefined);
      const origin = mainOrigin(runId);
      await this.log.append(runId, [
        ...(reply ? [{ ...origin, type: 'text' as const, content: reply }] : []),
        { ...origin, type: 'done', finishReason: 'stop', text: reply },
      ], { status: { to: 'done', ifStatus: [...LIVE_RUN_STATUSES] }, ...this.fence });
      await this.releaseLease(runId);
      return true;
    }
    const stored = await loadPolicy(q);
    const resumePoint = await resumePointOf({ q, append: (events, audit) => this.log.append(runId, events, { audit, ...this.fence }) }, runId, messages);
    await cancelStrayRelays(q, runId, resumePoint);
    this.outsideRequest(() => {
      const run = this.agents.agentFor(stored, selection, model, row.model ?? this.options.modelName).invoke({
        messages,
        permissions,
        runId,
        sessionId: row.sessionId,
        mode: row.mode ?? undefined,
        resume: resumePoint,
        checkpoint: this.checkpoint(runId, permissions, selection.toolNames),
      });
      this.execute(run, stored, row.owner ?? null);
    });
    await this.log.append(runId, [{ ...mainOrigin(runId), type: 'resumed' }], this.fence);
    return true;
  }

  /** Runs it here: its pump stores what it does; at its end the lease is released. */
  private execute(run: AgentRun, stored: StoredPolicy, owner: string | null): void {
    const entry: LiveRun = { run, owner, preClaims: new Map(), detached: false, pumped: Promise.resolve() };
    this.live.set(run.runId, entry);
    entry.pumped = (async () => {
      // The run's permissions follow the stored rules (run-agents.ts), so a rule's index tells its source.
      const end = await pumpRun({ run, log: this.log, runs: this.options.q.runs, policyVersion: stored.version, policyRules: stored.policy.rules.length, ...this.fence });
      if (end === 'lost' || end === 'unreachable') {
        this.report(new Error(end === 'lost'
          ? `Run ${run.runId} was taken over by another instance; its copy here stopped`
          : `Run ${run.runId} could not be stored (the database is unreachable); its copy here stopped and the run continues from its log once the database answers`));
        this.detach(run.runId);
      } else if (end !== 'ended') {
        this.report(new Error(`Run ${run.runId} failed: storing it failed: ${end.failed.message}`));
      }
      if (this.live.get(run.runId) === entry) this.live.delete(run.runId);
      // A detached run keeps its lease until shutdown releases it (or, lost, it is someone else's).
      if (!entry.detached) await this.releaseLease(run.runId);
    })();
  }

  /**
   * Stops a run here without ending it: nothing is settled or stored. Lease lost or database
   * unreachable: tools already executing finish (their results reach the execution log, where whoever
   * continues the run finds them; an approved action is not cut short). Shutdown: everything stops.
   */
  private detach(runId: string, { letToolsFinish = true } = {}): void {
    const entry = this.live.get(runId);
    if (!entry || entry.detached) return;
    entry.detached = true;
    entry.run.detach({ letToolsFinish });
  }

  /**
   * A write of the run failed because its lease is gone or the database cannot be reached: the
   * copy here stops (tools already executing finish) and the run is continued from its log, so a
   * blip of the database never fails a run, and an approved call is run once it can be recorded.
   */
  private detachIfCutOff(runId: string, error: unknown): void {
    if (isLeaseLost(error) || isDatabaseUnreachable(error)) this.detach(runId);
  }

  /** True when this instance may execute the run: always in one process, else when it holds the lease. */
  private async acquireLease(runId: string): Promise<boolean> {
    return this.leases ? this.leases.acquire(runId) : true;
  }

  private async releaseLease(runId: string): Promise<void> {
    await this.leases?.release(runId);
  }

  private report(error: Error): void {
    if (this.options.cluster?.onError) this.options.cluster.onError(error);
    else console.error('[gatehouse]', error.message);
  }

  /** Saves the conversation after each step; a copy that lost its lease is detached before it goes on. */
  private checkpoint(runId: string, permissions: unknown, tools: string[]) {
    return async (messages: ModelMessage[]) => {
      const row = await this.options.q.runs.updateRun({ id: runId, state: { messages, permissions, tools }, ...this.fence }).catch((error: unknown) => {
        this.detachIfCutOff(runId, error);
        throw error;
      });
      if (!row && this.options.cluster) {
        this.detach(runId);
        throw new AppError('conflict:lease_lost', 409, `Run ${runId} is executed by another instance now`);
      }
    };
  }

  /**
   * Replays the stored events after `afterSeq`, then follows the live ones; returns an unsubscribe.
   * `onClose`: this process stopped serving (shutdown) before the subscriber left.
   */
  subscribe(runId: string, afterSeq: number, listener: EventListener, onClose?: () => void): Promise<() => void> {
    return this.log.subscribe(runId, afterSeq, listener, onClose);
  }

  /**
   * A human decision. The relay must belong to the session; a second answer is a 409 with the
   * first. Always Allow is judged as in decideChecked (by default as a decider without `grants:manage`).
   */
  async resolve(relayId: string, input: { sessionId: string; response: RelayResponse; decidedBy: string; authority?: GrantAuthority }) {
    const relay = await this.options.q.relays.getRelay({ id: relayId });
    if (!relay || relay.sessionId !== input.sessionId) throw new AppError('not_found:relay', 404, 'No such relay in this session');
    const response = isAlwaysAllow(input.response) ? await this.checkAlwaysAllow(relayId, input.response, input.authority ?? { mayManageGrants: false }) : input.response;
    return this.options.broker.resolve(relayId, response, input.decidedBy);
  }

  /**
   * What a decision on a relay is checked against (its session, its run and the run's owner): from
   * memory when the relay waits in this process (the facts never change, so the decision path reads
   * nothing before its settle), else one joined read. Undefined for an unknown relay.
   */
  async relayAccess(relayId: string): Promise<RelayAccess | undefined> {
    const waiting = this.agents.waitingRelay(relayId);
    const entry = waiting ? this.live.get(waiting.runId) : undefined;
    if (waiting && entry) return { sessionId: waiting.sessionId, runId: waiting.runId, owner: entry.owner };
    return this.options.q.relays.getRelayAccess({ id: relayId });
  }

  /**
   * A human decision on a relay the caller has already checked (session and access): no re-read.
   * An approval of a call that waits in a run executing here also claims the call in the settle
   * statement, so the tool starts without a statement of its own (at most once still holds: the
   * claim is made only by the winning settle, and the run's own claim finds it).
   */
  async decideChecked(relayId: string, response: RelayResponse, decidedBy: string, authority: GrantAuthority = { mayManageGrants: false }) {
    // Always Allow is judged before anything is stored: a refused one leaves the relay pending.
    if (isAlwaysAllow(response)) response = await this.checkAlwaysAllow(relayId, response, authority);
    const decide = () => this.options.broker.resolve(relayId, response, decidedBy);
    const waiting = response.approved && this.options.approvalClaims ? this.agents.waitingRelay(relayId) : undefined;
    const entry = waiting ? this.live.get(waiting.runId) : undefined;
    if (!waiting || !entry || entry.detached || entry.preClaims.has(waiting.toolCallId)) return decide();
    let told!: (claimed: boolean) => void;
    entry.preClaims.set(waiting.toolCallId, new Promise<boolean>((resolve) => (told = resolve)));
    const { leaseOwner } = this.fence;
    return this.options.approvalClaims!.withApprovalClaim(relayId, { toolCallId: waiting.toolCallId, ...(leaseOwner === undefined ? {} : { leaseOwner }), done: told }, decide);
  }

  /** The response with its Always Allow rules checked against the relay (always-allow.ts); 403/422 when refused. */
  private async checkAlwaysAllow(relayId: string, response: RelayResponse, authority: GrantAuthority): Promise<RelayResponse> {
    assertScopeAllowed(response, authority);
    let relay: RelayRequest | undefined = this.agents.waitingRelay(relayId);
    if (!relay) {
      const row = await this.options.q.relays.getRelay({ id: relayId });
      // Unknown or already decided: the broker answers (404, or 409 with the first decision).
      if (row?.status !== 'pending') return response;
      relay = row.request;
    }
    return checkedAlwaysAllow(response, relay, authority, await this.workspaceRoot(), (await loadPolicy(this.options.q)).policy);
  }

  /** The workspace as the tools see it (a real path), which path rules resolve against. */
  private workspaceRoot(): Promise<string> {
    this.realWorkspace ??= realpath(this.options.workspace).catch(() => this.options.workspace);
    return this.realWorkspace;
  }

  /**
   * Cancels a run wherever it executes. Here: the run is stopped and ends as cancelled. Executed by
   * another instance: the status is stored and that instance is told (it also sees the status at
   * its next lease renewal). Executed nowhere (between a crash and its adoption): it is ended here,
   * under its lease, with a `done` event so its streams close.
   */
  async cancel(runId: string): Promise<void> {
    const { q } = this.options;
    const local = this.live.get(runId);
    if (local && !local.detached) return local.run.cancel();
    const row = await q.runs.getRun({ id: runId });
    if (!row) throw new AppError('not_found:run', 404, 'No such run');
    if (!isLiveStatus(row.status)) return;
    const bus = this.options.cluster?.bus;
    if (bus && !(await this.acquireLease(runId))) {
      await q.runs.updateRun({ id: runId, status: 'cancelled', ifStatus: [...LIVE_RUN_STATUSES] });
      await announceRunChange(bus, runId, 'control').catch((error: Error) => this.report(error));
      await this.options.broker.cancelRun(runId);
      return;
    }
    try {
      const cancelled = await q.runs.updateRun({ id: runId, status: 'cancelled', ifStatus: [...LIVE_RUN_STATUSES], ...this.fence });
      if (!cancelled) return;
      await this.options.broker.cancelRun(runId);
      await this.log.append(runId, [{ ...mainOrigin(runId), type: 'done', finishReason: 'cancelled', text: '' }], this.fence);
    } finally {
      await this.releaseLease(runId);
    }
  }

  /**
   * Switches a run's mode (e.g. "Approve all for this session" → bypassPermissions). Applies to the
   * run's next decisions, wherever it executes; a call already waiting stays waiting for its answer.
   */
  async setMode(runId: string, mode: Mode): Promise<{ runId: string; mode: Mode }> {
    const row = await this.options.q.runs.updateRun({ id: runId, mode, ifStatus: [...LIVE_RUN_STATUSES] });
    if (!row) {
      const existing = await this.options.q.runs.getRun({ id: runId });
      if (!existing) throw new AppError('not_found:run', 404, 'No such run');
      throw new AppError('conflict:run_finished', 409, `The run is ${existing.status}; its mode can no longer change`, { status: existing.status });
    }
    const local = this.live.get(runId);
    if (local) local.run.setMode(mode);
    else if (this.options.cluster) await announceRunChange(this.options.cluster.bus, runId, 'control').catch((error: Error) => this.report(error));
    await this.log.append(runId, [{ ...mainOrigin(runId), type: 'mode_changed', mode }]);
    return { runId, mode };
  }

  isLive(runId: string): boolean {
    const entry = this.live.get(runId);
    return entry !== undefined && !entry.detached;
  }

  /** Another instance changed a run executing here: re-read it and apply. */
  private async reread(runId: string): Promise<void> {
    if (!this.live.has(runId)) return;
    try {
      const row = await this.options.q.runs.getRun({ id: runId });
      if (row) this.apply({ runId, status: row.status, mode: row.mode });
    } catch (error) {
      // The next lease renewal reads it again.
      this.report(error as Error);
    }
  }

  /** A run's stored status and mode, as another instance may have set them, applied to its copy here. */
  private apply({ runId, status, mode }: Pick<RenewedLease, 'runId' | 'status' | 'mode'> | Pick<RunRow, 'status' | 'mode'> & { runId: string }): void {
    const entry = this.live.get(runId);
    if (!entry || entry.detached) return;
    if (!isLiveStatus(status)) entry.run.cancel();
    else if (mode) entry.run.setMode(mode);
  }
}

/** Where the server's own events of a run come from: its main agent. */
function mainOrigin(runId: string) {
  return { runId, agentId: 'main', parents: [] as string[] };
}

function firstUserText(messages: ModelMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((p) => ('text' in p ? p.text : '')).join(' ');
}
