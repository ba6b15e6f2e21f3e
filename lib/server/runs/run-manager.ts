// Runs detached from the request that started them. The manager starts and resumes runs (one agent
// shared per tools and model, deciding with the latest stored policy), hands each to a pump that stores its events before
// anyone hears of them (run-pump.ts, run-log.ts), and takes the human's side: decisions, cancel,
// mode. With several instances on one PostgreSQL (docs/DEPLOY.md) a run executes only where its
// lease is held (run-leases.ts); the other instances reach it through the database and NOTIFY, and
// a copy whose lease was lost, or that is stopped at shutdown, is detached: it stops without
// settling anything, and whoever continues the run finds it as it was.
import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { AgentRun, DecisionObserver, GrantStore } from '../../agent';
import { isLiveStatus } from '../../contract';
import { type Queries, type RelayAccess, type RenewedLease, type RunRow } from '../../db';
import type { CompiledPolicy, Mode } from '../../policy';
import type { DurableRelayBroker, RelayResponse } from '../../relay';
import type { GrantAuthority } from './always-allow';
import { AppError, isDatabaseUnreachable } from '../http/errors';
import { announceRunChange, listenForRunChanges, RunFollowers, type ClusterOptions } from '../cluster/cluster';
import { loadPolicy, type StoredPolicy } from '../stores/policy-store';
import type { McpToolSource } from '../agents/agent-profiles';
import { RunAgents } from '../agents/run-agents';
import { RunLeases } from '../cluster/run-leases';
import { RunLog, type EventListener } from './run-log';
import { isLeaseLost, pumpRun } from './run-pump';
import { executionLog, RunDecisions, type DecisionInput, type LiveRun } from './run-decisions';
import { cancelRun, firstUserText, setRunMode, type RunControlDeps } from './run-control';
import { recoverRuns, type RunRecoveryDeps } from './run-recovery';
import { cutText } from '../../db/storable-json';
import { isRefusal, UserSlots, type UserSlot } from '../user-slots';

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

/** A starting run's slot among its owner's runs, taken over by `execute` once it runs here. */
interface StartingSlot {
  slot: UserSlot | undefined;
  taken: boolean;
}

export interface RunManagerOptions {
  q: Queries;
  broker: DurableRelayBroker;
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
  /** The upstream MCP tools (lib/server/mcp's catalog). */
  mcp?: McpToolSource;
  /**
   * How many runs one owner may have going here at once (running or waiting for a person); a new
   * one past it is a 429 `too_many_runs`. Unset: no cap.
   */
  maxRunsPerUser?: number;
}

export class RunManager {
  private readonly live = new Map<string, LiveRun>();
  /** The runs each owner has going here (started or resumed), for maxRunsPerUser. */
  private readonly runsByOwner = new UserSlots();
  private readonly agents: RunAgents;
  /** Runs being started or resumed here: a concurrent recover() leaves them alone. */
  private readonly claiming = new Set<string>();
  /** The event log every run's events go through (outside runs append theirs here too). */
  readonly log: RunLog;
  private readonly followers: RunFollowers | undefined;
  private readonly leases: RunLeases | undefined;
  private readonly unlisten: Promise<(() => void) | undefined> | undefined;
  private stopping = false;
  private readonly decisions: RunDecisions;
  /**
   * Runs outlive the request that starts them, so they are launched in the async context this
   * manager was created in (at boot), not the request's: every promise and timer of a run would
   * otherwise carry the request's context (Next's request store: the request, its response and
   * socket) and keep it alive for as long as the run waits: about 28 KB per paused run.
   */
  private readonly outsideRequest = AsyncResource.bind(<T>(fn: () => T): T => fn());

  constructor(private readonly options: RunManagerOptions) {
    const { q } = options;
    this.agents = new RunAgents(
      // One process writes an embedded database: the stored policy is kept in memory until a write
      // moves the count. Several instances (PostgreSQL): each decision reads the latest version.
      { ...options, ...(options.cluster ? {} : { policyChanges: q.decisions }) },
      executionLog({
        q,
        live: this.live,
        fence: () => this.fence,
        cutOff: (runId, error) => this.detachIfCutOff(runId, error),
      }),
    );
    this.decisions = new RunDecisions({ ...options, agents: this.agents, live: this.live, fence: () => this.fence });
    const cluster = options.cluster;
    this.followers = cluster ? new RunFollowers(cluster.bus, (error) => this.report(error)) : undefined;
    this.log = new RunLog(
      options.q.events,
      cluster && this.followers ? { bus: cluster.bus, followers: this.followers } : undefined,
      (error) => this.report(error),
    );
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
      await Promise.all(
        runIds.map(
          (runId) => bus && announceRunChange(bus, runId, 'released').catch((error: Error) => this.report(error)),
        ),
      );
    }
    await this.close();
    this.log.closeAll();
    return runIds;
  }

  async start(input: StartRunInput): Promise<{ runId: string; sessionId: string }> {
    if (this.stopping) throw new AppError('unavailable:shutting_down', 503, 'This server is shutting down; try again');
    // Counted before the first write, so requests started together cannot all pass the cap.
    const starting: StartingSlot = {
      slot: input.owner === undefined ? undefined : this.runSlot(input.owner),
      taken: false,
    };
    try {
      return await this.startCounted(input, starting);
    } finally {
      // Not executed here (it failed before, or another instance executes it): its place is free.
      if (!starting.taken) starting.slot?.release();
    }
  }

  /** A place among the owner's runs going here, or a 429 `too_many_runs` naming the cap. */
  private runSlot(owner: string): UserSlot {
    const cap = this.options.maxRunsPerUser ?? Infinity;
    const taken = this.runsByOwner.tryTake(owner, cap);
    if (!isRefusal(taken)) return taken;
    throw new AppError(
      'too_many_runs',
      429,
      `Too many runs going: a user may have ${cap} at once on this server (GATEHOUSE_MAX_RUNS_PER_USER); stop one or let one finish, and try again`,
      { limit: cap },
    );
  }

  /** Runs `this.runsByOwner` counts for the owner now (tests). */
  runsGoing(owner: string): number {
    return this.runsByOwner.heldBy(owner);
  }

  private async startCounted(
    input: StartRunInput,
    starting: StartingSlot,
  ): Promise<{ runId: string; sessionId: string }> {
    const { q } = this.options;
    const runId = randomUUID();
    const sessionId = input.sessionId ?? randomUUID();
    const selection = this.agents.select(input.agent, input.tools);
    const modelName = input.model ?? this.options.modelName;
    const model = this.agents.modelFor(modelName);
    const stored = await loadPolicy(q);
    const title = cutText(firstUserText(input.messages), 120);
    const state = { messages: input.messages, permissions: input.permissions, tools: selection.toolNames };
    const row = {
      id: runId,
      sessionId,
      mode: input.mode ?? 'default',
      agent: selection.profile.name,
      model: modelName,
      title,
      owner: input.owner,
      state,
    } as const;
    const { leases } = this;
    // Several instances: the run and its lease commit together, so no other instance's takeover
    // scan sees the new run unleased and adopts it before this one starts it.
    let leased = true;
    if (leases)
      leased = await q.transaction(async (tx) => {
        await tx.runs.createRun(row);
        return leases.acquire(runId, tx.leases);
      });
    else await q.runs.createRun(row);
    this.claiming.add(runId);
    try {
      // Cannot happen (the lease was taken with the run); if it did, the holder executes it.
      if (!leased) return { runId, sessionId };
      // Launched outside the request's async context, so the run does not keep the request alive.
      this.outsideRequest(() => {
        const run = this.agents.agentFor(selection, model, modelName).invoke({
          messages: input.messages,
          permissions: input.permissions,
          runId,
          sessionId,
          mode: input.mode,
          checkpoint: this.checkpoint(runId, input.permissions, selection.toolNames),
        });
        this.execute(run, stored, input.owner ?? null, starting);
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
    return recoverRuns(this.recovery());
  }

  private recovery(): RunRecoveryDeps {
    return {
      q: this.options.q,
      modelName: this.options.modelName,
      log: this.log,
      agents: this.agents,
      live: this.live,
      claiming: this.claiming,
      clustered: this.options.cluster !== undefined,
      fence: this.fence,
      acquireLease: (runId) => this.acquireLease(runId),
      releaseLease: (runId) => this.releaseLease(runId),
      outsideRequest: this.outsideRequest,
      checkpoint: (runId, permissions, tools) => this.checkpoint(runId, permissions, tools),
      execute: (run, stored, owner) => this.execute(run, stored, owner),
      report: (error) => this.report(error),
    };
  }

  /**
   * Runs it here: its pump stores what it does; at its end the lease is released and the run's place
   * among its owner's (`slot`, or counted now for a resumed run) is given back.
   */
  private execute(run: AgentRun, stored: StoredPolicy, owner: string | null, starting?: StartingSlot): void {
    if (starting) starting.taken = true;
    const counted = starting ? starting.slot : owner === null ? undefined : this.runsByOwner.add(owner);
    const entry: LiveRun = { run, owner, preClaims: new Map(), detached: false, pumped: Promise.resolve() };
    this.live.set(run.runId, entry);
    entry.pumped = (async () => {
      // The run's permissions follow the stored rules (run-agents.ts), so a rule's index tells its
      // source. Each decision is audited with the version that made it (run-audit.ts); the one the
      // run started with stands for a decision whose version was not noted.
      const end = await pumpRun({
        run,
        log: this.log,
        runs: this.options.q.runs,
        policyVersion: stored.version,
        policyRules: stored.policy.rules.length,
        ...this.fence,
      });
      if (end === 'lost' || end === 'unreachable') {
        this.report(
          new Error(
            end === 'lost'
              ? `Run ${run.runId} was taken over by another instance; its copy here stopped`
              : `Run ${run.runId} could not be stored (the database is unreachable); its copy here stopped and the run continues from its log once the database answers`,
          ),
        );
        this.detach(run.runId);
      } else if (end !== 'ended') {
        this.report(new Error(`Run ${run.runId} failed: storing it failed: ${end.failed.message}`));
      }
      if (this.live.get(run.runId) === entry) this.live.delete(run.runId);
      counted?.release();
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
      const row = await this.options.q.runs
        .updateRun({ id: runId, state: { messages, permissions, tools }, ...this.fence })
        .catch((error: unknown) => {
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

  /** A human decision (checked against the relay's session); see RunDecisions.resolve. */
  resolve(relayId: string, input: DecisionInput) {
    return this.decisions.resolve(relayId, input);
  }

  /** What a decision on a relay is checked against; see RunDecisions.relayAccess. */
  relayAccess(relayId: string): Promise<RelayAccess | undefined> {
    return this.decisions.relayAccess(relayId);
  }

  /** A human decision on a relay the caller has already checked; see RunDecisions.decideChecked. */
  decideChecked(
    relayId: string,
    response: RelayResponse,
    decidedBy: string,
    authority?: GrantAuthority,
    role?: string,
  ) {
    return this.decisions.decideChecked(relayId, response, decidedBy, authority, role);
  }

  /** Cancels a run wherever it executes (run-control.ts). */
  cancel(runId: string): Promise<void> {
    return cancelRun(this.control(), runId);
  }

  /** Switches a run's mode wherever it executes (run-control.ts). */
  setMode(runId: string, mode: Mode): Promise<{ runId: string; mode: Mode }> {
    return setRunMode(this.control(), runId, mode);
  }

  private control(): RunControlDeps {
    return {
      q: this.options.q,
      broker: this.options.broker,
      log: this.log,
      live: this.live,
      bus: this.options.cluster?.bus,
      fence: this.fence,
      acquireLease: (runId) => this.acquireLease(runId),
      releaseLease: (runId) => this.releaseLease(runId),
      report: (error) => this.report(error),
    };
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
  private apply({
    runId,
    status,
    mode,
  }: Pick<RenewedLease, 'runId' | 'status' | 'mode'> | (Pick<RunRow, 'status' | 'mode'> & { runId: string })): void {
    const entry = this.live.get(runId);
    if (!entry || entry.detached) return;
    if (!isLiveStatus(status)) entry.run.cancel();
    else if (mode) entry.run.setMode(mode);
  }
}
