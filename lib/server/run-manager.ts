// Runs detached from the request that started them: each run's events are written to the event
// log (with a per-run sequence) before anyone is told, so a subscriber that comes back with the
// last sequence it saw misses nothing. Relays and grants live in the database; every decision,
// automatic or human, is audited.
import { createHash, randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { createAgent, type Agent, type AgentEvent, type AgentRun, type GrantStore, type ModelToolCall, type PendingRelays, type ResumePoint } from '../agent';
import type { AppendEffects, EventRow, Queries, RecordAuditInput } from '../db';
import { compilePolicy, importPolicy, type CompiledPolicy, type Mode, type Policy } from '../policy';
import type { DurableRelayBroker, RelayRequest, RelayResponse } from '../relay';
import { AppError } from './errors';
import { selectTools, type ToolSelection } from './agent-profiles';
import { loadPolicy, type StoredPolicy } from './policy-store';
import { RunFollowers, type ClusterOptions } from './cluster';
import { RunLeases } from './run-leases';

export interface StoredEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
}

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
  grants: GrantStore;
  model: LanguageModelV4;
  modelName: string;
  /** Resolves a model spec a request names (throws a ModelConfigError for a bad one). */
  resolveModel?: (spec: string) => LanguageModelV4;
  workspace: string;
  approvalTimeoutS: number;
  /**
   * Several instances on one PostgreSQL: runs are executed only under a lease, appends are
   * announced on the bus, and streams follow the database for runs executed elsewhere.
   */
  cluster?: ClusterOptions;
}

type Listener = (event: StoredEvent) => void;

export class RunManager {
  private readonly live = new Map<string, AgentRun>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly policies = new Map<string, CompiledPolicy>();
  private readonly agents = new Map<string, Agent>();
  /** Shared by every run, so Always Allow settles the pending relays of the whole session. */
  private readonly pendingRelays: PendingRelays = new Map();
  private readonly models = new Map<string, LanguageModelV4>();
  /** Runs being started or resumed here: a concurrent recover() leaves them alone. */
  private readonly claiming = new Set<string>();
  private readonly followers: RunFollowers | undefined;
  private readonly leases: RunLeases | undefined;

  constructor(private readonly options: RunManagerOptions) {
    const cluster = options.cluster;
    if (!cluster) return;
    this.followers = new RunFollowers(cluster.bus, (error) => this.report(error));
    this.leases = new RunLeases(options.q.leases, cluster, { executing: () => [...this.live.keys()], takeOver: () => this.recover() });
  }

  /** Stops the lease timer and the bus subscriptions (tests, shutdown); runs executing here go on. */
  async close(): Promise<void> {
    this.leases?.close();
    await this.followers?.close();
  }

  async start(input: StartRunInput): Promise<{ runId: string; sessionId: string }> {
    const { q } = this.options;
    const runId = randomUUID();
    const sessionId = input.sessionId ?? randomUUID();
    const selection = selectTools(input.agent, input.tools);
    const modelName = input.model ?? this.options.modelName;
    const model = this.modelFor(modelName);
    const stored = await loadPolicy(q);
    const title = firstUserText(input.messages).slice(0, 120);
    const state = { messages: input.messages, permissions: input.permissions, tools: selection.toolNames };
    await q.runs.createRun({ id: runId, sessionId, mode: input.mode ?? 'default', agent: selection.profile.name, model: modelName, title, owner: input.owner, state });
    this.claiming.add(runId);
    try {
      // Another instance's takeover scan may have adopted the brand-new run first: it executes it.
      if (!(await this.acquireLease(runId))) return { runId, sessionId };
      this.launch(runId, sessionId, stored, input, selection, model, modelName);
    } finally {
      this.claiming.delete(runId);
    }
    return { runId, sessionId };
  }

  private launch(runId: string, sessionId: string, stored: StoredPolicy, input: StartRunInput, selection: ToolSelection, model: LanguageModelV4, modelName: string): void {
    const run = this.agentFor(stored, input.permissions, selection, model, modelName).invoke({
      messages: input.messages,
      runId,
      sessionId,
      mode: input.mode,
      checkpoint: this.checkpoint(runId, input.permissions, selection.toolNames),
    });
    this.live.set(runId, run);
    void this.pump(run, stored.version);
  }

  /**
   * After a restart: every run that was running or waiting continues from its last checkpoint.
   * Its relays are still in the database (and their deadlines kept running); a call that had
   * started executing is not executed again.
   */
  async recover(): Promise<string[]> {
    const { q } = this.options;
    const resumed: string[] = [];
    // Several instances: only the runs nobody holds a live lease of (another instance executes the rest).
    const ids = this.options.cluster
      ? (await q.leases.listTakeoverCandidates({ limit: 200 })).map((c) => c.runId)
      : (await Promise.all((['waiting', 'running'] as const).map(async (status) => (await q.runs.listRuns({ status, limit: 200 })).items.map((row) => row.id)))).flat();
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
    if (!row) return false;
    // Finished meanwhile (between the listing and the lease).
    if (row.status !== 'running' && row.status !== 'waiting') {
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
      model = this.modelFor(row.model ?? this.options.modelName);
    } catch (error) {
      await q.runs.updateRun({ id: runId, status: 'failed', state: { ...row.state, error: (error as Error).message } });
      await this.releaseLease(runId);
      return true;
    }
    const stored = await loadPolicy(q);
    const resumePoint = await this.resumePoint(runId, messages);
    const run = this.agentFor(stored, permissions, selection, model, row.model ?? this.options.modelName).invoke({
      messages,
      runId,
      sessionId: row.sessionId,
      mode: row.mode ?? undefined,
      resume: resumePoint,
      checkpoint: this.checkpoint(runId, permissions, selection.toolNames),
    });
    this.live.set(runId, run);
    await this.persist(runId, 'resumed', { type: 'resumed', runId, agentId: 'main', parents: [] });
    void this.pump(run, stored.version);
    return true;
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

  /** The calls of the last step, with the relays raised and the results produced before the restart. */
  private async resumePoint(runId: string, messages: ModelMessage[]): Promise<ResumePoint | undefined> {
    const last = messages.at(-1);
    if (!last || last.role !== 'assistant' || typeof last.content === 'string') return undefined;
    const calls: ModelToolCall[] = last.content.flatMap((part) => (part.type === 'tool-call' ? [{ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input }] : []));
    if (calls.length === 0) return undefined;
    const ids = new Set(calls.map((c) => c.toolCallId));
    const relays: ResumePoint['relays'] = {};
    const results: ResumePoint['results'] = {};
    for (const event of await this.options.q.events.listEvents({ runId })) {
      const data = event.data as Record<string, unknown>;
      if (data.agentId !== 'main') continue;
      if (event.type === 'relay') {
        const relay = data.relay as RelayRequest;
        if (ids.has(relay.toolCallId)) relays[relay.toolCallId] = relay;
      } else if (event.type === 'tool_result' && ids.has(data.toolCallId as string)) {
        results[data.toolCallId as string] = { output: String(data.output), isError: data.isError === true };
      }
    }
    // A call that had started executing but announced no result: it may have run, so it is not
    // run again; the model is told it was interrupted.
    for (const execution of await this.options.q.toolExecutions.listToolExecutions({ runId })) {
      const call = calls.find((c) => c.toolCallId === execution.toolCallId);
      if (!call || results[call.toolCallId]) continue;
      const stored = execution.result as { output?: string; isError?: boolean } | null;
      const result = stored?.output !== undefined
        ? { output: stored.output, isError: stored.isError === true }
        : { output: `${call.toolName} was interrupted by a server restart while running; it is not run again.`, isError: true };
      results[call.toolCallId] = result;
      await this.persist(runId, 'tool_result', { type: 'tool_result', agentId: 'main', parents: [], runId, toolCallId: call.toolCallId, tool: call.toolName, ...result, denied: false });
    }
    return { calls, relays, results };
  }

  private checkpoint(runId: string, permissions: unknown, tools: string[]) {
    return async (messages: ModelMessage[]) => {
      await this.options.q.runs.updateRun({ id: runId, state: { messages, permissions, tools } });
    };
  }

  /** One model instance per spec; a bad spec is a 400 naming the `model` field. */
  private modelFor(spec: string): LanguageModelV4 {
    if (spec === this.options.modelName) return this.options.model;
    let model = this.models.get(spec);
    if (model) return model;
    if (!this.options.resolveModel) throw AppError.badRequest(`Only the model "${this.options.modelName}" is available`, [{ path: 'model', message: `expected "${this.options.modelName}"` }]);
    try {
      model = this.options.resolveModel(spec);
    } catch (error) {
      const message = (error as Error).message;
      throw AppError.badRequest(`Invalid model: ${message}`, [{ path: 'model', message }]);
    }
    this.models.set(spec, model);
    return model;
  }

  /** One compiled policy per stored version and per-run permissions, shared by every run using it. */
  private compiled(storedPolicy: Policy, version: number, permissions: unknown): CompiledPolicy {
    const key = `${version}\u0000${JSON.stringify(permissions ?? null)}`;
    let compiled = this.policies.get(key);
    if (!compiled) {
      if (this.policies.size >= 64) this.policies.clear();
      compiled = compilePolicy(withPermissions(storedPolicy, permissions));
      this.policies.set(key, compiled);
    }
    return compiled;
  }

  /**
   * One agent per (policy version, per-run permissions, tools, model), shared by every run using
   * it: an agent holds no per-run state, and building one per run cost memory per paused run.
   */
  private agentFor(stored: StoredPolicy, permissions: unknown, selection: ToolSelection, model: LanguageModelV4, modelName: string): Agent {
    const key = [stored.version, JSON.stringify(permissions ?? null), selection.toolNames.join(','), modelName].join('\u0000');
    let agent = this.agents.get(key);
    if (agent) return agent;
    const { q } = this.options;
    agent = createAgent({
      model,
      tools: selection.tools,
      agents: selection.agents,
      policy: this.compiled(stored.policy, stored.version, permissions),
      broker: this.options.broker,
      grants: this.options.grants,
      workspace: this.options.workspace,
      approvalTimeoutS: this.options.approvalTimeoutS,
      pendingRelays: this.pendingRelays,
      executions: {
        claim: ({ runId: id, toolCallId }) => q.toolExecutions.claimToolExecution({ runId: id, toolCallId }),
        finish: async ({ runId: id, toolCallId, output, isError }) => {
          await q.toolExecutions.finishToolExecution({ runId: id, toolCallId, result: { output, isError } });
        },
      },
    });
    if (this.agents.size >= 64) this.agents.clear();
    this.agents.set(key, agent);
    return agent;
  }

  /** Replays the stored events after `afterSeq`, then follows the live ones; returns an unsubscribe. */
  async subscribe(runId: string, afterSeq: number, listener: Listener): Promise<() => void> {
    let last = afterSeq;
    const buffered: StoredEvent[] = [];
    let replaying = true;
    let closed = false;
    const followers = this.followers;
    // Several instances: the run may be executed elsewhere, so a notification (or a gap in what
    // arrives here) makes this stream read the log after its last seq. Pulls never overlap.
    let pulling = false;
    let pullAgain = false;
    const pull = () => {
      if (closed) return;
      if (pulling || replaying) return void (pullAgain = true);
      pulling = true;
      void (async () => {
        do {
          pullAgain = false;
          for (const row of await this.options.q.events.listEvents({ runId, afterSeq: last })) deliver(toStored(row));
        } while (pullAgain && !closed);
      })()
        .catch((error: Error) => this.report(error))
        .finally(() => (pulling = false));
    };
    const deliver = (event: StoredEvent) => {
      if (closed) return;
      if (replaying) return void buffered.push(event);
      if (event.seq <= last) return;
      if (followers && event.seq > last + 1) return pull();
      last = event.seq;
      listener(event);
    };
    const set = this.listeners.get(runId) ?? new Set();
    set.add(deliver);
    this.listeners.set(runId, set);
    const unfollow = await followers?.add(runId, { last: () => last, pull });
    try {
      for (const row of await this.options.q.events.listEvents({ runId, afterSeq })) {
        last = row.seq;
        listener(toStored(row));
      }
    } catch (error) {
      set.delete(deliver);
      unfollow?.();
      throw error;
    }
    replaying = false;
    for (const event of buffered) deliver(event);
    if (pullAgain) pull();
    return () => {
      closed = true;
      unfollow?.();
      set.delete(deliver);
      if (set.size === 0 && this.listeners.get(runId) === set) this.listeners.delete(runId);
    };
  }

  /** A human decision. The relay must belong to the session; a second answer is a 409 with the first. */
  async resolve(relayId: string, input: { sessionId: string; response: RelayResponse; decidedBy: string }) {
    const relay = await this.options.q.relays.getRelay({ id: relayId });
    if (!relay || relay.sessionId !== input.sessionId) throw new AppError('not_found:relay', 404, 'No such relay in this session');
    return this.options.broker.resolve(relayId, input.response, input.decidedBy);
  }

  /** A human decision on a relay the caller has already checked (session and access): no re-read. */
  async decideChecked(relayId: string, response: RelayResponse, decidedBy: string) {
    return this.options.broker.resolve(relayId, response, decidedBy);
  }

  async cancel(runId: string): Promise<void> {
    const run = this.live.get(runId);
    if (run) return run.cancel();
    const row = await this.options.q.runs.getRun({ id: runId });
    if (!row) throw new AppError('not_found:run', 404, 'No such run');
    await this.options.broker.cancelRun(runId);
    await this.options.q.runs.updateRun({ id: runId, status: 'cancelled', ifStatus: ['running', 'waiting'] });
  }

  /**
   * Switches a run's mode (e.g. "Approve all for this session" → bypassPermissions). Applies to the
   * run's next decisions; a call already waiting stays waiting for its answer.
   */
  async setMode(runId: string, mode: Mode): Promise<{ runId: string; mode: Mode }> {
    const row = await this.options.q.runs.updateRun({ id: runId, mode, ifStatus: ['running', 'waiting'] });
    if (!row) {
      const existing = await this.options.q.runs.getRun({ id: runId });
      if (!existing) throw new AppError('not_found:run', 404, 'No such run');
      throw new AppError('conflict:run_finished', 409, `The run is ${existing.status}; its mode can no longer change`, { status: existing.status });
    }
    this.live.get(runId)?.setMode(mode);
    await this.persist(runId, 'mode_changed', { type: 'mode_changed', runId, mode });
    return { runId, mode };
  }

  isLive(runId: string): boolean {
    return this.live.has(runId);
  }

  private async pump(run: AgentRun, policyVersion: number): Promise<void> {
    const { q } = this.options;
    const pending = new Set<string>();
    const asked = new Map<string, AskedCall>();
    let text = '';
    const flushText = async () => {
      if (!text) return;
      const delta = text;
      text = '';
      await this.persist(run.runId, 'text', { delta, agentId: 'main' });
    };
    try {
      const events = run[Symbol.asyncIterator]();
      for (let next = await events.next(); !next.done; next = await events.next()) {
        const event = next.value;
        // Text deltas are batched into one row per stretch of text.
        if (event.type === 'text' && event.agentId === 'main' && event.parents.length === 0) {
          text += event.delta;
          continue;
        }
        await flushText();
        const batch = [event];
        // A call that asks is followed at once by its relay (or by its failure): both go into one
        // statement, so the relay reaches the client one database round trip sooner.
        if (event.type === 'tool_call' && event.decision?.action === 'ask') {
          const follower = await events.next();
          if (!follower.done) batch.push(follower.value);
        }
        const rows: Array<{ type: string; data: Record<string, unknown> }> = [];
        const audit: RecordAuditInput[] = [];
        // State and audit are stored in the same statement as the events, before anyone is told.
        let status: AppendEffects['status'];
        for (const item of batch) {
          if (item.type === 'text' && item.agentId === 'main' && item.parents.length === 0) {
            text += item.delta;
            continue;
          }
          if (item.type === 'relay') {
            pending.add(item.relay.id);
            status = { to: 'waiting', ifStatus: ['running', 'waiting'] };
          } else if (item.type === 'relay_resolved') {
            pending.delete(item.relayId);
            if (pending.size === 0) status = { to: 'running', ifStatus: ['waiting'] };
          } else if (item.type === 'done' && item.agentId === 'main' && item.parents.length === 0) {
            const result = await run.result;
            const final = item.finishReason === 'cancelled' ? 'cancelled' : item.finishReason === 'error' ? 'failed' : 'done';
            await q.runs.updateRun({ id: run.runId, status: final, state: { messages: result.messages } });
          }
          audit.push(...this.audit(run, item, asked, policyVersion));
          rows.push({ type: item.type, data: serialize(item) });
        }
        await this.persistBatch(run.runId, rows, { status, audit });
      }
      await flushText();
    } catch (error) {
      // Storage failed mid-run: stop the run (pending relays become denials) and mark it failed.
      run.cancel();
      await q.runs.updateRun({ id: run.runId, status: 'failed', state: { error: (error as Error).message } }).catch(() => undefined);
    } finally {
      this.live.delete(run.runId);
      await this.releaseLease(run.runId);
    }
  }

  /** Appends the events (with a status change and audit rows: one statement), then tells the subscribers in order. */
  private async persistBatch(runId: string, events: Array<{ type: string; data: Record<string, unknown> }>, effects: AppendEffects = {}): Promise<void> {
    if (events.length === 0) return;
    const rows = await this.options.q.events.appendEvents({ runId, events, ...effects });
    if (rows.length > 0) this.announce(runId, rows.at(-1)!.seq);
    for (const row of rows) for (const listener of this.listeners.get(runId) ?? []) listener(toStored(row));
  }

  /** Appends the event (with its status change and audit rows: one statement), then tells the subscribers. */
  private async persist(runId: string, type: string, data: Record<string, unknown>, effects: AppendEffects = {}): Promise<void> {
    const row = await this.options.q.events.appendEvent({ runId, type, data, ...effects });
    this.announce(runId, row.seq);
    for (const listener of this.listeners.get(runId) ?? []) listener(toStored(row));
  }

  /** Tells the other instances' streams that the log grew (stored first; a lost notice only delays them). */
  private announce(runId: string, seq: number): void {
    const bus = this.options.cluster?.bus;
    if (!bus) return;
    bus.notify('gatehouse_events', { runId, seq }).catch((error: Error) => this.report(error));
  }

  /** The audit rows an event calls for (every decision, automatic or human), stored with the event. */
  private audit(run: AgentRun, event: AgentEvent, asked: Map<string, AskedCall>, policyVersion: number): RecordAuditInput[] {
    if (event.type === 'tool_call' && event.decision) {
      return [{
        kind: 'decision',
        runId: run.runId,
        sessionId: run.sessionId,
        agentId: event.agentId,
        tool: event.tool,
        params: auditParams(event.params),
        action: event.decision.action,
        reason: event.decision.explanation,
        ...(event.decision.rule ? { rule: { ...event.decision.rule, policyVersion } } : {}),
        decidedBy: event.decision.action === 'ask' ? undefined : 'policy',
      }];
    }
    if (event.type === 'relay') {
      asked.set(event.relay.id, { createdAt: event.relay.createdAt, tool: event.relay.tool, params: event.relay.params });
    } else if (event.type === 'relay_resolved') {
      // The human's row names the call too, so filtering the audit by tool finds approvals and denials.
      const call = asked.get(event.relayId);
      const rows: RecordAuditInput[] = [{
        kind: 'decision',
        runId: run.runId,
        sessionId: run.sessionId,
        agentId: event.agentId,
        ...(call ? { tool: call.tool, params: auditParams(call.params) } : {}),
        action: event.status === 'approved' ? 'allow' : 'deny',
        reason: event.reason ?? event.status,
        decidedBy: event.decidedBy,
        waitMs: Date.now() - (call?.createdAt ?? Date.now()),
        details: { relayId: event.relayId, toolCallId: event.toolCallId, status: event.status, always: event.always },
      }];
      asked.delete(event.relayId);
      if (event.status === 'approved' && event.always) {
        rows.push({ kind: 'grant_created', runId: run.runId, sessionId: run.sessionId, agentId: event.agentId, decidedBy: event.decidedBy, details: { relayId: event.relayId } });
      }
      return rows;
    }
    return [];
  }
}

/** What the audit needs of a call that asked, until its answer comes. */
interface AskedCall {
  createdAt: number;
  tool: string;
  params: unknown;
}

function serialize(event: AgentEvent): Record<string, unknown> {
  if (event.type === 'relay') {
    const { respond: _respond, ...rest } = event;
    return rest as unknown as Record<string, unknown>;
  }
  return event as unknown as Record<string, unknown>;
}

const MAX_AUDIT_PARAMS_BYTES = 4_096;

/** Params as recorded in the audit: whole when small, a digest when large (e.g. a file's content). */
export function auditParams(params: unknown): Record<string, unknown> {
  const json = JSON.stringify(params ?? {});
  if (json.length <= MAX_AUDIT_PARAMS_BYTES) return (params ?? {}) as Record<string, unknown>;
  return { digest: `sha256:${createHash('sha256').update(json).digest('hex')}`, bytes: json.length, preview: json.slice(0, 200) };
}

function toStored(row: EventRow): StoredEvent {
  return { seq: row.seq, type: row.type, data: row.data as Record<string, unknown> };
}

function withPermissions(policy: Policy, permissions: unknown): Policy {
  if (permissions === undefined || permissions === null) return policy;
  const overlay = importPolicy(permissions);
  return { ...policy, rules: [...policy.rules, ...overlay.rules] };
}

function firstUserText(messages: ModelMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  return typeof last.content === 'string' ? last.content : last.content.map((p) => ('text' in p ? p.text : '')).join(' ');
}
