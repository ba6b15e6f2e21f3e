// createAgent: the zero-config entry point of the runtime. No model means the offline model, no
// tools the built-in tools, no policy the built-in default policy. `invoke` starts a run and
// returns its events as an async iterable, plus handles to change its mode or cancel it; a run may
// bring its own permissions, model and tools (run-options.ts). The policy may be a source, read for
// every decision, so a running run follows the policy as it changes (the server's stored versions).
import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { z } from 'zod';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import {
  compilePolicy,
  DEFAULT_POLICY,
  importPolicy,
  isCompiledPolicy,
  type CompiledPolicy,
  type Mode,
  type Policy,
  type PolicyInput,
} from '../policy';
import { MemoryRelayBroker, RunDetachedError, type RelayBroker } from '../relay';
import {
  approvalRules,
  DEFAULT_PROMPT_TEMPLATE,
  type ApprovalHandler,
  type InterruptOn,
  type ToolApproval,
} from './approval';
import type { AgentEvent } from './events';
import { createOfflineModel } from './models';
import { EventQueue } from './loop/queue';
import type { DecisionObserver } from './loop/observe';
import {
  MaxStepsError,
  runAgentLevel,
  type AgentLevel,
  type ExecutionLog,
  type PendingRelays,
  type ResumePoint,
  type RunContext,
} from './loop/run';
import { perPolicy, type PolicySource } from './loop/context';
import { runModel, selectRunTools, type RunTool } from './run-options';
import { MemoryGrantStore, type GrantStore } from './session';
import { createTaskTool, type AgentProfile } from './task';
import { builtinTools, createWorkspace } from './tools';
import type { ToolDefinition } from './tools/types';

/**
 * A tool with the seeds' optional approval flag and prompt template. Any tool definition fits,
 * whatever its input type: the loop validates input with the tool's own schema before anything
 * else sees it (its methods are bivariant; the schema is read as producing unknown input).
 */
export type AgentTool = Omit<ToolDefinition<never>, 'inputSchema'> & {
  inputSchema: z.ZodType<unknown>;
  approval?: ToolApproval;
  approvalPrompt?: string;
};

export interface AgentOptions {
  model?: LanguageModelV4;
  tools?: readonly AgentTool[];
  /**
   * The agent's policy: a document, or a compiled policy (used as it is). Or a source, a function
   * read before each decision (it may return a promise; a failing one fails that call closed):
   * every run, already started or not, is then judged by the policy it gives at the time, e.g. the
   * latest stored version (the server's). Return the same object while the policy is unchanged:
   * what is derived from it (a run's permissions on top) is compiled once per object.
   */
  policy?: PolicyInput | Policy | CompiledPolicy | PolicySource;
  /**
   * The administrator's rules, when `policy` also holds rules someone else supplied (the server
   * adds a run's own `permissions`): only these may open what a tool keeps closed otherwise
   * (fetch_url: local network addresses they name). Default: `policy` itself (with a source, the
   * policy it gives for the call).
   */
  trustedPolicy?: PolicyInput | Policy | CompiledPolicy;
  mode?: Mode;
  /** Subagent profiles, run through the `task` tool. */
  agents?: AgentProfile[];
  /** Seconds a relay waits when its rule sets no timeoutS (default 300). */
  approvalTimeoutS?: number;
  onApproval?: ApprovalHandler;
  interruptOn?: InterruptOn;
  broker?: RelayBroker;
  grants?: GrantStore;
  /** Workspace directory for the built-in tools (default `.data/workspace`). */
  workspace?: string;
  system?: string;
  maxSteps?: number;
  /** Records each tool call id before it runs, so none runs twice (the server's is durable). */
  executions?: ExecutionLog;
  /** Pending relays shared with other agents (the server shares one map across all runs). */
  pendingRelays?: PendingRelays;
  /** Watches every real decision without changing it (the server compares each with its shadow policy). */
  observer?: DecisionObserver;
}

export interface InvokeOptions {
  messages: ModelMessage[];
  /**
   * This run's permissions, in any format `importPolicy` reads (the seeds' `{ allowlist, deny,
   * allowOnce }`, the snake_case rules, a policy): their rules are added after the agent's policy
   * for this run, as POST /api/chat does. They never unlock what only the agent's `trustedPolicy`
   * may (local addresses). Invalid ones throw PolicyValidationError before the run starts.
   */
  permissions?: unknown;
  /** This run's model: a model object, or a spec resolved from the environment (`offline`, `openai:<model>`, ...). */
  model?: LanguageModelV4 | string;
  /**
   * This run's tools, replacing the agent's: tool objects (each still gated) or names of the agent's
   * tools (`task`: its subagents). An unknown or repeated name throws ToolSelectionError.
   */
  tools?: readonly RunTool<AgentTool>[];
  /** Continue a run a restart interrupted: the last step's calls, relays and known results. */
  resume?: ResumePoint;
  /** Called with the conversation after each step, so the run can be resumed from it. */
  checkpoint?: (messages: ModelMessage[]) => Promise<void>;
  runId?: string;
  sessionId?: string;
  mode?: Mode;
  signal?: AbortSignal;
}

export interface AgentRun extends AsyncIterable<AgentEvent> {
  runId: string;
  sessionId: string;
  setMode(mode: Mode): void;
  /** Ends the run as cancelled: its open relays are settled as cancelled. */
  cancel(): void;
  /**
   * Stops executing the run here without ending it: open relays stay open and nothing is settled,
   * because the run continues elsewhere (another instance took it over, or after a restart). The
   * events emitted before are still delivered; none after (the event stream ends).
   * `letToolsFinish`: tools already executing are not stopped (their results still reach the
   * execution log, where whoever continues the run finds them); nothing new starts.
   */
  detach(options?: { letToolsFinish?: boolean }): void;
  /** Settles when the run ends: the final text and the whole conversation. */
  result: Promise<{ text: string; messages: ModelMessage[]; finishReason: string }>;
}

export interface Agent {
  invoke(options: InvokeOptions): AgentRun;
  broker: RelayBroker;
  grants: GrantStore;
}

export function createAgent(options: AgentOptions = {}): Agent {
  const model = options.model ?? createOfflineModel();
  const tools = (options.tools ?? builtinTools) as readonly AgentTool[];
  const agentPolicy = policySource(options.policy);
  const extraRules = (runTools: readonly AgentTool[]) =>
    approvalRules(options.interruptOn, Object.fromEntries(runTools.map((t) => [t.name, t.approval])));
  const extra = extraRules(tools);
  // Undefined: the agent's policy of each call (RunContext.trustedPolicy).
  const trustedPolicy =
    options.trustedPolicy === undefined
      ? undefined
      : isCompiledPolicy(options.trustedPolicy)
        ? options.trustedPolicy
        : compilePolicy(options.trustedPolicy);
  const broker = options.broker ?? new MemoryRelayBroker();
  const grants = options.grants ?? new MemoryGrantStore();
  const workspace = createWorkspace(options.workspace);
  // Started now, awaited by each run: an agent never run (or whose workspace is gone before its
  // first run) must not leave a rejection nobody handles; a run still sees the error.
  workspace.catch(() => undefined);
  // A run's policy on the agent's policy of the moment: its permissions' rules (as withPermissions
  // adds them) and the approval rules after the agent's, compiled once per agent policy. One overlay
  // per (permissions, approval rules) a run brings, shared by the runs that bring the same.
  const runOverlays = new Map<string, (policy: CompiledPolicy) => CompiledPolicy>();
  const overlayFor = (permissions: unknown, runTools: readonly AgentTool[]) => {
    const runExtra = runTools === tools ? extra : extraRules(runTools);
    const key = JSON.stringify([permissions ?? null, runExtra]);
    let overlay = runOverlays.get(key);
    if (!overlay) {
      // Invalid permissions throw here, before the run starts.
      const added = [
        ...(permissions === undefined || permissions === null ? [] : importPolicy(permissions).rules),
        ...runExtra,
      ];
      overlay =
        added.length === 0
          ? (policy: CompiledPolicy) => policy
          : perPolicy((policy) => compilePolicy({ ...policy.policy, rules: [...policy.policy.rules, ...added] }));
      if (runOverlays.size >= 64) runOverlays.clear();
      runOverlays.set(key, overlay);
    }
    return overlay;
  };
  const profiles = Object.fromEntries((options.agents ?? []).map((p) => [p.name, p]));
  // One map for all runs of this agent: Always Allow in one run settles the session's other relays.
  const pending: PendingRelays = options.pendingRelays ?? new Map();

  function invoke(input: InvokeOptions): AgentRun {
    // Everything a run brings is checked before it starts: a bad one throws, and nothing runs.
    const selected = selectRunTools(input.tools, tools, Object.keys(profiles).length > 0);
    const runTools = input.tools === undefined ? tools : selected.tools;
    const runPolicyOn = overlayFor(input.permissions, runTools);
    const runModelInstance = runModel(input.model, model);
    const promptTemplates: Record<string, string> = { '*': DEFAULT_PROMPT_TEMPLATE };
    for (const t of runTools) if (t.approvalPrompt) promptTemplates[t.name] = t.approvalPrompt;
    const runId = input.runId ?? randomUUID();
    const sessionId = input.sessionId ?? runId;
    const queue = new EventQueue<AgentEvent>();
    const controller = new AbortController();
    // Tools that are executing have their own signal: a detach that lets them finish stops
    // everything else (waits, model calls, new claims) but not them.
    const toolController = new AbortController();
    const stop = (reason: unknown, stopTools = true) => {
      controller.abort(reason);
      if (stopTools) toolController.abort(reason);
    };
    input.signal?.addEventListener('abort', () => stop(input.signal?.reason), { once: true });
    if (input.signal?.aborted) stop(input.signal.reason);
    const messages = [...input.messages];
    let ctx: RunContext | undefined;
    let pendingMode: Mode | undefined;
    let detached = false;

    const result = (async () => {
      const env = await workspace;
      ctx = {
        runId,
        sessionId,
        model: runModelInstance,
        broker,
        grants,
        env,
        queue,
        signal: controller.signal,
        toolSignal: toolController.signal,
        mode: pendingMode ?? input.mode ?? options.mode ?? 'default',
        approvalTimeoutS: options.approvalTimeoutS ?? 300,
        maxSteps: options.maxSteps ?? 25,
        onApproval: options.onApproval,
        interruptOn: options.interruptOn,
        promptTemplates,
        pending,
        executions: options.executions,
        agentPolicy,
        trustedPolicy,
        observer: options.observer,
        // A detached run saves nothing more: its unwinding (calls ending as denied) is not the run's state.
        checkpoint:
          input.checkpoint &&
          (async (conversation) => {
            if (detached) throw new RunDetachedError();
            await input.checkpoint!(conversation);
          }),
      };
      const level: AgentLevel = {
        agentId: 'main',
        parents: [],
        system: options.system,
        tools: [...runTools] as ToolDefinition[],
        policyOn: runPolicyOn,
      };
      if (selected.task) level.tools.push(createTaskTool(ctx, level, runPolicyOn, profiles) as ToolDefinition);
      const done = (finishReason: 'stop' | 'max_steps' | 'cancelled' | 'error', text: string) => {
        queue.push({ type: 'done', runId, agentId: 'main', parents: [], finishReason, text });
        return { text, messages, finishReason };
      };
      try {
        const text = await runAgentLevel(ctx, level, messages, input.resume);
        return done('stop', text);
      } catch (error) {
        if (controller.signal.aborted) return done('cancelled', '');
        if (error instanceof MaxStepsError) return done('max_steps', error.message);
        queue.push({
          type: 'error',
          runId,
          agentId: 'main',
          parents: [],
          message: (error as Error)?.message ?? String(error),
        });
        return done('error', '');
      } finally {
        if (!detached) await broker.cancelRun(runId, 'The run ended').catch(() => undefined);
        queue.close();
      }
    })();

    return {
      runId,
      sessionId,
      result,
      setMode(mode: Mode) {
        if (ctx) ctx.mode = mode;
        else pendingMode = mode;
      },
      cancel() {
        stop(new Error('cancelled'));
      },
      detach({ letToolsFinish = false } = {}) {
        detached = true;
        queue.close();
        stop(new RunDetachedError(), !letToolsFinish);
      },
      [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
    };
  }

  return { invoke, broker, grants };
}

/** The agent's policy as a source: a source as it is; a fixed policy, compiled once, returned each time. */
function policySource(policy: AgentOptions['policy']): PolicySource {
  if (typeof policy === 'function') return policy;
  const fixed = isCompiledPolicy(policy) ? policy : compilePolicy(policy ?? DEFAULT_POLICY);
  return () => fixed;
}
