// The agents the server executes runs with, built once and shared: one model instance per model spec,
// one compiled policy per stored version, one agent per (policy version, tools, model). A run's own
// permissions are the library's per-run overlay (`invoke({ permissions })`, compiled once per
// agent and permissions). An agent holds no per-run state, and building one per run cost memory
// for every paused run.
import type { LanguageModelV4 } from '@ai-sdk/provider';
import {
  createAgent,
  type Agent,
  type DecisionObserver,
  type ExecutionLog,
  type GrantStore,
  type PendingRelays,
} from '../../agent';
import { compilePolicy, type CompiledPolicy } from '../../policy';
import type { DurableRelayBroker } from '../../relay';
import { AppError } from '../http/errors';
import { selectTools, type McpToolSource, type ToolSelection } from './agent-profiles';
import type { StoredPolicy } from '../stores/policy-store';

export interface RunAgentsOptions {
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

export class RunAgents {
  private readonly policies = new Map<string, CompiledPolicy>();
  private readonly agents = new Map<string, Agent>();
  /** Shared by every run, so Always Allow settles the pending relays of the whole session. */
  private readonly pendingRelays: PendingRelays = new Map();
  private readonly models = new Map<string, LanguageModelV4>();

  constructor(
    private readonly options: RunAgentsOptions,
    /** Where tool calls are claimed before they run and their results stored (the server's is durable and fenced). */
    private readonly executions: ExecutionLog,
  ) {}

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
    this.models.set(spec, model);
    return model;
  }

  /** One compiled policy per stored version, shared by every agent using it. */
  private compiled(stored: StoredPolicy): CompiledPolicy {
    const key = String(stored.version);
    let compiled = this.policies.get(key);
    if (!compiled) {
      if (this.policies.size >= 64) this.policies.clear();
      compiled = compilePolicy(stored.policy);
      this.policies.set(key, compiled);
    }
    return compiled;
  }

  /**
   * One agent per (policy version, tools, model), shared by every run using it: an agent holds no
   * per-run state, and building one per run cost memory per paused run. A run's permissions go to
   * `invoke`: they come after the stored rules, so the audit tells a rule's source by its index
   * (run-audit.ts), and they never open local network addresses to fetch_url (only the stored
   * policy, the agent's `trustedPolicy`, does).
   */
  agentFor(stored: StoredPolicy, selection: ToolSelection, model: LanguageModelV4, modelName: string): Agent {
    const key = [stored.version, selection.toolNames.join(','), modelName, selection.mcpVersion].join('\u0000');
    let agent = this.agents.get(key);
    if (agent) return agent;
    const policy = this.compiled(stored);
    agent = createAgent({
      model,
      tools: selection.tools,
      agents: selection.agents,
      policy,
      trustedPolicy: policy,
      broker: this.options.broker,
      grants: this.options.grants,
      workspace: this.options.workspace,
      approvalTimeoutS: this.options.approvalTimeoutS,
      pendingRelays: this.pendingRelays,
      executions: this.executions,
      observer: this.options.observerFor?.(policy),
    });
    if (this.agents.size >= 64) this.agents.clear();
    this.agents.set(key, agent);
    return agent;
  }
}
