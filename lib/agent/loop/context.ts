// What the gated loop's parts share: the run (RunContext: one per run, shared by the main agent and
// its subagents), the agent level a call is made at, and `emit`, which stamps an event with both.
import type { ModelMessage } from 'ai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { CompiledPolicy, Mode } from '../../policy';
import type { RelayBroker, RelayRequest } from '../../relay';
import type { ApprovalHandler, InterruptOn } from '../approval';
import type { EventBody } from '../../contract';
import type { AgentEvent } from '../events';
import type { DecisionObserver } from './observe';
import type { EventQueue } from './queue';
import type { GrantStore } from '../session';
import type { ModelToolCall } from './step';
import type { ToolDefinition, ToolEnvironment } from '../tools/types';

/** What one run shares across the main agent and its subagents. */
export interface RunContext {
  runId: string;
  sessionId: string;
  model: LanguageModelV4;
  broker: RelayBroker;
  grants: GrantStore;
  env: ToolEnvironment;
  queue: EventQueue<AgentEvent>;
  signal: AbortSignal;
  /** Stops executing tools: the run's signal, except when it was detached letting them finish. */
  toolSignal: AbortSignal;
  mode: Mode;
  approvalTimeoutS: number;
  maxSteps: number;
  onApproval?: ApprovalHandler;
  interruptOn?: InterruptOn;
  promptTemplates: Record<string, string>;
  /** Pending relays of every run sharing this map, so a new grant can resolve the ones of its session it covers. */
  pending: PendingRelays;
  /** Durable at-most-once: claims a tool call id before it runs; false means it already ran. */
  executions?: ExecutionLog;
  /** Persists the main agent's conversation after each model step and each set of results. */
  checkpoint?: (messages: ModelMessage[]) => Promise<void>;
  /**
   * The agent's policy, read for every call: a fixed compiled policy, or a source that follows the
   * latest stored version (the server's), so a saved policy reaches the run's next decision.
   */
  agentPolicy: PolicySource;
  /**
   * The administrator's policy alone, for what only it may unlock (tools/types.ts, ToolContext).
   * Undefined: the agent's policy of the call (`agentPolicy`).
   */
  trustedPolicy?: CompiledPolicy;
  /** Watches every real decision (the server's shadow policy); never changes one. */
  observer?: DecisionObserver;
}

export interface ExecutionLog {
  claim(call: { runId: string; toolCallId: string; tool: string }): Promise<boolean>;
  finish(call: { runId: string; toolCallId: string; output: string; isError: boolean }): Promise<void>;
}

/** Where an agent's policy comes from: read per call, synchronously when it is in memory. */
export type PolicySource = () => CompiledPolicy | Promise<CompiledPolicy>;

/** One agent level: who it is, what it may use, and the policy it is judged by. */
export interface AgentLevel {
  agentId: string;
  parents: string[];
  system?: string;
  tools: ToolDefinition[];
  /**
   * This level's policy on top of the agent's policy of the moment: the run's permissions (and a
   * subagent's rules) after the agent's rules. Compiled once per agent policy (see `perPolicy`).
   */
  policyOn(agentPolicy: CompiledPolicy): CompiledPolicy;
  mode?: Mode;
}

/** The policy a call is judged by, and the agent's policy it was built on. */
export interface Judged {
  policy: CompiledPolicy;
  agentPolicy: CompiledPolicy;
}

/** The level's policy now: read for each decision, so a policy saved meanwhile decides the next call. */
export async function currentPolicy(ctx: RunContext, level: AgentLevel): Promise<Judged> {
  const agentPolicy = await ctx.agentPolicy();
  return { agentPolicy, policy: level.policyOn(agentPolicy) };
}

/** `derive` memoized per agent policy: one compilation per policy version, none per call. */
export function perPolicy(derive: (agentPolicy: CompiledPolicy) => CompiledPolicy) {
  const derived = new WeakMap<CompiledPolicy, CompiledPolicy>();
  return (agentPolicy: CompiledPolicy): CompiledPolicy => {
    let policy = derived.get(agentPolicy);
    if (!policy) derived.set(agentPolicy, (policy = derive(agentPolicy)));
    return policy;
  };
}

/** Relays still waiting, by id; shared by the runs of an agent (and by the server's runs). */
export type PendingRelays = Map<string, PendingCall>;

export interface PendingCall {
  /** The run that waits: its mode and workspace decide whether a new grant covers the call. */
  ctx: RunContext;
  level: AgentLevel;
  tool: ToolDefinition;
  input: Record<string, unknown>;
  request: RelayRequest;
  /** What the tool's `inspect` found: no grant may approve the call then. */
  inspection?: string;
}

/** One tool call at one agent level: what its handling passes around. */
export interface CallScope {
  ctx: RunContext;
  level: AgentLevel;
  call: ModelToolCall;
}

/** A call whose tool is known and whose input passed the tool's schema. */
export interface GatedCall extends CallScope {
  tool: ToolDefinition;
  input: Record<string, unknown>;
  /** The policy the call was decided by (its decision's rule indexes point into it). */
  judged: Judged;
}

export interface CallResult {
  output: string;
  isError: boolean;
  /** The policy or a human refused the call: it never ran. A fact, kept in the checkpoint (results.ts). */
  denied?: boolean;
}

/** Where a run stopped (a restart): the last step's calls, with the relays and results already known. */
export interface ResumePoint {
  calls: ModelToolCall[];
  relays: Record<string, RelayRequest>;
  results: Record<string, CallResult>;
}

export function emit(
  ctx: RunContext,
  level: Pick<AgentLevel, 'agentId' | 'parents'>,
  body: EventBody<AgentEvent>,
): void {
  ctx.queue.push({ ...body, runId: ctx.runId, agentId: level.agentId, parents: level.parents } as AgentEvent);
}
