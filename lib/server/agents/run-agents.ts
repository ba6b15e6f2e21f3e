// The agents the server executes runs with, built once and shared: one model instance per model
// spec, one agent per (tools, model). Every agent decides with the latest stored policy, read per
// decision (stored-policy-source.ts), so a policy saved while a run goes (or waits) decides its next
// call, the main agent's and its subagents' alike. A run's own permissions are the library's per-run
// overlay (`invoke({ permissions })`, compiled once per policy version and permissions). An agent
// holds no per-run state, and building one per run cost memory for every paused run.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import {
  createAgent,
  type Agent,
  type DecisionObservation,
  type DecisionObserver,
  type ExecutionLog,
  type GrantStore,
  type PendingRelays,
} from '../../agent';
import type { ChangeCounter, Queries } from '../../db';
import type { CompiledPolicy } from '../../policy';
import type { DurableRelayBroker } from '../../relay';
import { AppError } from '../http/errors';
import { noteDecidingPolicy } from '../runs/run-audit';
import { selectTools, type McpToolSource, type ToolSelection } from './agent-profiles';
import { StoredPolicySource } from './stored-policy-source';

export interface RunAgentsOptions {
  q: Queries;
  /**
   * The count of decision-input changes, given only where this process alone writes the database
   * (PGlite): the stored policy is then kept in memory until it moves. Without it each decision
   * reads the latest version's number.
   */
  policyChanges?: ChangeCounter;
  broker: DurableRelayBroker;
  grants: GrantStore;
  model: LanguageModelV4;
  modelName: string;
  resolveModel?: (spec: string) => LanguageModelV4;
  workspace: string;
  approvalTimeoutS: number;
  /** Watches the decisions of agents built on a stored policy (the shadow monitor). */
  observerFor?: (policy: CompiledPolicy) => DecisionObserver;
  /** The upstream MCP tools (the `general` profile includes them all). */
  mcp?: McpToolSource;
}

/** Entries kept in each cache; beyond it the cache starts again. */
const MAX_CACHED = 64;

export class RunAgents {
  private readonly agents = new Map<string, Agent>();
  /** Shared by every run, so Always Allow settles the pending relays of the whole session. */
  private readonly pendingRelays: PendingRelays = new Map();
  private readonly models = new Map<string, LanguageModelV4>();
  private readonly policy: StoredPolicySource;
  /** The shadow monitor's observer per stored version (it compares against the version that decided). */
  private readonly shadowObservers = new WeakMap<CompiledPolicy, DecisionObserver>();
  /** Every agent's observer: notes the version that decided each call (the audit), and hands it to the shadow monitor. */
  private readonly observer: DecisionObserver = {
    observe: (observation) => this.observe(observation),
  };

  constructor(
    private readonly options: RunAgentsOptions,
    /** Where tool calls are claimed before they run and their results stored (the server's is durable and fenced). */
    private readonly executions: ExecutionLog,
  ) {
    this.policy = new StoredPolicySource(options.q, options.policyChanges);
  }

  /** The request of a relay that a run executing here waits on (undefined for any other relay). */
  waitingRelay(relayId: string) {
    return this.pendingRelays.get(relayId)?.request;
  }

  /** The tools of a profile, with the MCP tools on offer now. */
  select(agent: string | undefined, tools: string[] | undefined): ToolSelection {
    return selectTools(agent, tools, this.options.mcp);
  }

  /** One model instance per spec; a bad spec is a 400 naming the `model` field. */
  modelFor(spec: string): LanguageModelV4 {
    if (spec === this.options.modelName) return this.options.model;
    let model = this.models.get(spec);
    if (model) return model;
    if (!this.options.resolveModel)
      throw AppError.badRequest(`Only the model "${this.options.modelName}" is available`, [
        { path: 'model', message: `expected "${this.options.modelName}"` },
      ]);
    try {
      model = this.options.resolveModel(spec);
    } catch (error) {
      const message = (error as Error).message;
      throw AppError.badRequest(`Invalid model: ${message}`, [{ path: 'model', message }]);
    }
    if (this.models.size >= MAX_CACHED) this.models.clear();
    this.models.set(spec, model);
    return model;
  }

  /**
   * One agent per (tools, model), shared by every run using it: an agent holds no per-run state,
   * and building one per run cost memory per paused run. Its policy is the latest stored version
   * at each decision. A run's permissions go to `invoke`: they come after the stored rules, so the
   * audit tells a rule's source by its index (run-audit.ts), and they never open local network
   * addresses to fetch_url (only the stored policy, the agent's default `trustedPolicy`, does).
   */
  agentFor(selection: ToolSelection, model: LanguageModelV4, modelName: string): Agent {
    // JSON, not a joined string: a tool name (an MCP server's, made up) may hold any separator.
    const key = JSON.stringify([selection.toolNames, modelName, selection.mcpVersion]);
    let agent = this.agents.get(key);
    if (agent) return agent;
    agent = createAgent({
      model,
      tools: selection.tools,
      agents: selection.agents,
      policy: () => this.policy.get(),
      broker: this.options.broker,
      grants: this.options.grants,
      workspace: this.options.workspace,
      approvalTimeoutS: this.options.approvalTimeoutS,
      pendingRelays: this.pendingRelays,
      executions: this.executions,
      observer: this.observer,
    });
    if (this.agents.size >= MAX_CACHED) this.agents.clear();
    this.agents.set(key, agent);
    return agent;
  }

  /** On the decision path: notes, hands over, returns (the shadow monitor queues; nothing here waits). */
  private observe(observation: DecisionObservation): void {
    const base = observation.agentPolicy;
    if (!base) return;
    const version = this.policy.versionOf(base);
    if (version) noteDecidingPolicy(observation.decision, version);
    const observerFor = this.options.observerFor;
    if (!observerFor) return;
    let shadow = this.shadowObservers.get(base);
    if (!shadow) this.shadowObservers.set(base, (shadow = observerFor(base)));
    if (shadow.active !== false) shadow.observe(observation);
  }
}
