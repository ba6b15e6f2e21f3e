// The gated loop of one agent (the main agent or a subagent): a model step, then every tool call
// of the step through the gate, asks raised together and answered in any order, results back to
// the model in call order. Anything but an approval (deny, timeout, abort, handler error) is a
// denial: no tool runs that the policy or a human did not allow.
import { randomUUID } from 'node:crypto';
import type { ModelMessage } from 'ai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { evaluate, grantFitsCall, RuleSchema, type CompiledPolicy, type Decision, type Mode, type Rule, type ToolCall } from '../../policy';
import type { RelayBroker, RelayOutcome, RelayRequest, RelayResponse } from '../../relay';
import { renderPrompt, type ApprovalHandler, type InterruptOn, dynamicInterrupt } from '../approval';
import type { EventBody } from '../../contract';
import type { AgentEvent } from '../events';
import { applyInspection, gate, inspectCall } from './gate';
import { adjuster, notifyObserver, type DecisionObserver } from './observe';
import type { EventQueue } from './queue';
import type { GrantStore } from '../session';
import { runModelStep, type ModelToolCall } from './step';
import { suggestAlwaysAllow } from './suggest';
import { ToolError, type ToolDefinition, type ToolEnvironment } from '../tools/types';

import { DENIAL_PREFIX } from '../models';

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
  /** The administrator's policy alone, for what only it may unlock (tools/types.ts, ToolContext). */
  trustedPolicy?: CompiledPolicy;
  /** Watches every real decision (the server's shadow policy); never changes one. */
  observer?: DecisionObserver;
}

export interface ExecutionLog {
  claim(call: { runId: string; toolCallId: string; tool: string }): Promise<boolean>;
  finish(call: { runId: string; toolCallId: string; output: string; isError: boolean }): Promise<void>;
}

/** One agent level: who it is, what it may use, and the policy it is judged by. */
export interface AgentLevel {
  agentId: string;
  parents: string[];
  system?: string;
  tools: ToolDefinition[];
  policy: CompiledPolicy;
  mode?: Mode;
}

/** Relays still waiting, by id; shared by the runs of an agent (and by the server's runs). */
export type PendingRelays = Map<string, PendingCall>;

interface PendingCall {
  /** The run that waits: its mode and workspace decide whether a new grant covers the call. */
  ctx: RunContext;
  level: AgentLevel;
  tool: ToolDefinition;
  input: Record<string, unknown>;
  request: RelayRequest;
  /** What the tool's `inspect` found: no grant may approve the call then. */
  inspection?: string;
}

export interface CallResult {
  output: string;
  isError: boolean;
}

/** Where a run stopped (a restart): the last step's calls, with the relays and results already known. */
export interface ResumePoint {
  calls: ModelToolCall[];
  relays: Record<string, RelayRequest>;
  results: Record<string, CallResult>;
}

export async function runAgentLevel(ctx: RunContext, level: AgentLevel, messages: ModelMessage[], resume?: ResumePoint): Promise<string> {
  let lastText = '';
  if (resume && resume.calls.length > 0) {
    const results = await Promise.all(
      resume.calls.map((call) => resume.results[call.toolCallId] ?? guarded(ctx, level, call, () => resumeCall(ctx, level, call, resume.relays[call.toolCallId]))),
    );
    messages.push(toolMessage(resume.calls, results));
    await ctx.checkpoint?.(messages);
  }
  for (let step = 0; step < ctx.maxSteps; step++) {
    const result = await runModelStep({
      model: ctx.model,
      system: level.system,
      messages,
      tools: level.tools,
      signal: ctx.signal,
      onText: (content) => emit(ctx, level, { type: 'text', content }),
    });
    messages.push(...result.responseMessages);
    if (level.agentId === 'main') await ctx.checkpoint?.(messages);
    if (result.text) lastText = result.text;
    if (result.toolCalls.length === 0) return lastText;
    const results = await Promise.all(result.toolCalls.map((call) => guarded(ctx, level, call, () => handleCall(ctx, level, call))));
    messages.push(toolMessage(result.toolCalls, results));
    if (level.agentId === 'main') await ctx.checkpoint?.(messages);
  }
  throw new MaxStepsError(ctx.maxSteps);
}

/**
 * One call failing to be decided (storage down while registering its relay, say) ends as a tool
 * error for that call alone: it never runs, and the other calls of the step are unaffected.
 */
async function guarded(ctx: RunContext, level: AgentLevel, call: ModelToolCall, handle: () => Promise<CallResult>): Promise<CallResult> {
  try {
    return await handle();
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    const result = { output: `${call.toolName} was not run: the call could not be decided (${(error as Error)?.message ?? String(error)}).`, isError: true };
    emit(ctx, level, { type: 'tool_result', toolCallId: call.toolCallId, name: call.toolName, output: result.output, isError: true, denied: false });
    return result;
  }
}

function toolMessage(calls: ModelToolCall[], results: CallResult[]): ModelMessage {
  return {
    role: 'tool',
    content: calls.map((call, i) => ({
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: results[i]!.isError ? { type: 'error-text' as const, value: results[i]!.output } : { type: 'text' as const, value: results[i]!.output },
    })),
  };
}

/** A call of the step a restart interrupted: wait on its relay if it had one, else decide it again. */
async function resumeCall(ctx: RunContext, level: AgentLevel, call: ModelToolCall, relay: RelayRequest | undefined): Promise<CallResult> {
  const tool = level.tools.find((t) => t.name === call.toolName);
  if (!relay || !tool) return handleCall(ctx, level, call);
  const finish = (result: CallResult, denied = false, metadata?: Record<string, unknown>): CallResult => {
    emit(ctx, level, { type: 'tool_result', toolCallId: call.toolCallId, name: call.toolName, output: result.output, isError: result.isError, denied, metadata });
    return result;
  };
  const { outcome, announce } = await awaitRelay(ctx, level, tool, relay.params, relay, await inspectCall(tool, relay.params, ctx.env));
  if (outcome.status !== 'approved') return finish(denial(outcome.reason ?? 'Denied'), true);
  try {
    const grants = await ctx.grants.list(ctx.sessionId);
    const result = await execute(ctx, level, tool, relay.params, call.toolCallId, grants, true, announce);
    return finish({ output: result.output, isError: result.isError }, false, result.metadata);
  } finally {
    announce();
  }
}

export class MaxStepsError extends Error {
  constructor(readonly steps: number) {
    super(`The agent stopped after ${steps} steps`);
  }
}

export function emit(ctx: RunContext, level: Pick<AgentLevel, 'agentId' | 'parents'>, body: EventBody<AgentEvent>): void {
  ctx.queue.push({ ...body, runId: ctx.runId, agentId: level.agentId, parents: level.parents } as AgentEvent);
}

async function handleCall(ctx: RunContext, level: AgentLevel, call: ModelToolCall): Promise<CallResult> {
  const finish = (result: CallResult, denied = false, metadata?: Record<string, unknown>): CallResult => {
    emit(ctx, level, { type: 'tool_result', toolCallId: call.toolCallId, name: call.toolName, output: result.output, isError: result.isError, denied, metadata });
    return result;
  };
  const tool = level.tools.find((t) => t.name === call.toolName);
  if (!tool) {
    emit(ctx, level, { type: 'tool_call', toolCallId: call.toolCallId, name: call.toolName, params: call.input });
    return finish({ output: `Unknown tool ${call.toolName}. Available: ${level.tools.map((t) => t.name).join(', ')}`, isError: true });
  }
  const grants = await ctx.grants.list(ctx.sessionId);
  const gated = gate({
    policy: level.policy,
    tool,
    rawInput: call.input,
    agentId: level.agentId,
    mode: level.mode ?? ctx.mode,
    grants,
    workspace: ctx.env.workspace,
    shouldApprove: dynamicInterrupt(ctx.interruptOn, tool.name),
  });
  if (gated.kind === 'invalid') {
    emit(ctx, level, { type: 'tool_call', toolCallId: call.toolCallId, name: call.toolName, params: call.input });
    return finish({ output: gated.message, isError: true });
  }
  const { input } = gated;
  const inspection = await inspectCall(tool, input, ctx.env);
  const decision = inspection === undefined ? gated.decision : applyInspection(gated.decision, inspection, level.mode ?? ctx.mode);
  notifyObserver(ctx.observer, () => ({
    runId: ctx.runId, sessionId: ctx.sessionId, toolCallId: call.toolCallId, agentId: level.agentId,
    call: gated.call, context: gated.evalContext, decision, policy: level.policy.policy,
    adjust: adjuster(input, tool.name, { shouldApprove: dynamicInterrupt(ctx.interruptOn, tool.name), inspection, mode: level.mode ?? ctx.mode }),
  }));
  emit(ctx, level, { type: 'tool_call', toolCallId: call.toolCallId, name: tool.name, params: input, decision });
  if (decision.action === 'deny') return finish(denial(decision.explanation), true);
  let announce: (() => void) | undefined;
  if (decision.action === 'allow') {
    const used = decision.consumes?.grants ?? [];
    if (used.length > 0) await ctx.grants.consume(ctx.sessionId, used.map((i) => grants[i]!).filter(Boolean));
  } else {
    const answer = await askHuman(ctx, level, tool, input, call.toolCallId, decision, inspection);
    if (answer.outcome.status !== 'approved') return finish(denial(answer.outcome.reason ?? 'Denied'), true);
    announce = answer.announce;
  }
  try {
    const result = await execute(ctx, level, tool, input, call.toolCallId, grants, announce !== undefined, announce);
    return finish({ output: result.output, isError: result.isError }, false, result.metadata);
  } finally {
    announce?.();
  }
}

function denial(reason: string): CallResult {
  return { output: `${DENIAL_PREFIX} ${reason.replace(/\.?\s*$/, '.')} Do not retry the same call.`, isError: true };
}

/**
 * Claims the call, then runs it. `claimed` (announcing a human's approval) is called once the tool
 * has been started (its synchronous part: a command is handed to the spawn helper), or once the
 * claim failed: the approval itself was stored when the relay was settled, and announcing it
 * earlier would put its event append (PGlite runs one statement at a time, on the main thread)
 * ahead of the claim or the spawn, on the path from the decision to the tool's start.
 */
async function execute(ctx: RunContext, level: AgentLevel, tool: ToolDefinition, input: Record<string, unknown>, toolCallId: string, grants: Rule[], approved: boolean, claimed?: () => void) {
  // A stopped run starts nothing, even a call approved at the last moment.
  if (ctx.signal.aborted) return { output: `${tool.name} was not run: the run was stopped.`, isError: true, metadata: undefined };
  if (ctx.executions) {
    let won: boolean;
    try {
      won = await ctx.executions.claim({ runId: ctx.runId, toolCallId, tool: tool.name });
    } catch (error) {
      claimed?.();
      // Without a record that it runs, it does not run.
      return { output: `${tool.name} was not run: its execution could not be recorded (${(error as Error).message}).`, isError: true, metadata: undefined };
    }
    if (!won) {
      claimed?.();
      return { output: `${tool.name} was not run again: this call (${toolCallId}) has already been executed.`, isError: true, metadata: undefined };
    }
  }
  const running = executeClaimed(ctx, level, tool, input, toolCallId, grants, approved);
  claimed?.();
  const result = await running;
  await ctx.executions?.finish({ runId: ctx.runId, toolCallId, output: result.output, isError: result.isError }).catch(() => undefined);
  return result;
}

async function executeClaimed(ctx: RunContext, level: AgentLevel, tool: ToolDefinition, input: Record<string, unknown>, toolCallId: string, grants: Rule[], approved: boolean) {
  try {
    const result = await tool.execute(input, {
      ...ctx.env,
      toolCallId,
      signal: ctx.toolSignal,
      approved,
      trustedPolicy: ctx.trustedPolicy,
      ...(level.agentId === 'main' ? {} : { agent: level.agentId }),
      evaluate: (call) =>
        evaluate(level.policy, { ...call, ...(level.agentId === 'main' ? {} : { agent: level.agentId }) }, {
          mode: level.mode ?? ctx.mode,
          grants,
          workspaceRoot: ctx.env.workspace,
          risk: level.tools.find((t) => t.name === call.tool)?.risk,
        }),
    });
    return { output: result.output, isError: result.isError === true, metadata: result.metadata };
  } catch (error) {
    const message = error instanceof ToolError ? error.message : `${tool.name} failed: ${(error as Error)?.message ?? String(error)}`;
    return { output: message, isError: true, metadata: error instanceof ToolError ? { code: error.code } : undefined };
  }
}

function timeoutOf(level: AgentLevel, decision: Decision, fallbackS: number): number {
  const rule = decision.rule ? level.policy.policy.rules[decision.rule.index] : undefined;
  return rule?.timeoutS ?? fallbackS;
}

async function askHuman(ctx: RunContext, level: AgentLevel, tool: ToolDefinition, input: Record<string, unknown>, toolCallId: string, decision: Decision, inspection?: string): Promise<Answer> {
  const call = { tool: tool.name, params: input, ...(level.agentId === 'main' ? {} : { agent: level.agentId }) };
  const { suggestedRules, alwaysAllow, autoApprove } = suggestAlwaysAllow(level.policy, tool, input, call, ctx.env, inspection, dynamicInterrupt(ctx.interruptOn, tool.name) !== undefined);
  const preview = tool.preview ? await tool.preview(input, ctx.env).catch(() => undefined) : undefined;
  const now = Date.now();
  const request: RelayRequest = {
    id: randomUUID(),
    kind: 'permission',
    runId: ctx.runId,
    sessionId: ctx.sessionId,
    agentId: level.agentId,
    parents: level.parents,
    toolCallId,
    tool: tool.name,
    params: input,
    risk: tool.risk,
    decision,
    suggestedRules,
    alwaysAllow,
    autoApprove,
    ...(preview ? { preview } : {}),
    prompt: renderPrompt(ctx.promptTemplates[tool.name] ?? ctx.promptTemplates['*'] ?? '', tool.name, input),
    createdAt: now,
    expiresAt: now + timeoutOf(level, decision, ctx.approvalTimeoutS) * 1000,
  };
  await ctx.broker.register(request);
  // The request's own fields, flat on the event (the seed design's shape), and `respond` beside them.
  emit(ctx, level, { ...request, type: 'relay', respond: (response) => answerOnce(ctx, request.id, response) });
  if (ctx.onApproval) void answerWithHandler(ctx, request);
  return awaitRelay(ctx, level, tool, input, request, inspection);
}

/**
 * `respond` for the event: the seed design's consumers call it without awaiting (a timer's late
 * "deny" after the human answered, a second key press), so a refused second answer must not
 * become an unhandled rejection that ends their process. Whoever awaits still gets the error.
 */
function answerOnce(ctx: RunContext, relayId: string, response: RelayResponse): Promise<RelayOutcome> {
  const answered = ctx.broker.resolve(relayId, response, 'user');
  answered.catch(() => undefined);
  return answered;
}

/** A relay's outcome, and `announce`, which emits its `relay_resolved` event (once, however often called). */
interface Answer {
  outcome: RelayOutcome;
  announce: () => void;
}

/**
 * Waits for a registered relay's outcome (also after a restart), then applies Always Allow. Any
 * outcome but an approval is announced at once; an approval is announced by the caller once the
 * call is claimed (see `execute`).
 */
async function awaitRelay(ctx: RunContext, level: AgentLevel, tool: ToolDefinition, input: Record<string, unknown>, request: RelayRequest, inspection?: string): Promise<Answer> {
  ctx.pending.set(request.id, { ctx, level, tool, input, request, inspection });
  const outcome = await ctx.broker.wait(request.id, { signal: ctx.signal });
  ctx.pending.delete(request.id);
  let announced = false;
  const announce = () => {
    if (announced) return;
    announced = true;
    emit(ctx, level, {
      type: 'relay_resolved',
      relayId: request.id,
      toolCallId: request.toolCallId,
      status: outcome.status,
      reason: outcome.reason,
      decidedBy: outcome.decidedBy,
      always: outcome.response?.always === true,
      ...(outcome.response?.always ? { scope: outcome.response.scope ?? 'session' } : {}),
    });
  };
  if (outcome.status !== 'approved') announce();
  else if (outcome.response?.always) await grantAlways(ctx, tool, request, outcome);
  return { outcome, announce };
}

async function answerWithHandler(ctx: RunContext, request: RelayRequest): Promise<void> {
  const handler = ctx.onApproval!;
  try {
    const response = handler === 'auto-approve' ? { approved: true } : handler === 'auto-deny' ? { approved: false, reason: 'Denied automatically' } : await handler(request);
    await ctx.broker.resolve(request.id, response, 'handler');
  } catch (error) {
    // A failing handler is a denial, never an approval.
    await ctx.broker.resolve(request.id, { approved: false, reason: `The approval handler failed: ${(error as Error)?.message ?? String(error)}` }, 'system').catch(() => undefined);
  }
}

/**
 * Always Allow: store the rules (as edited by the human), then settle the pending relays they now
 * cover. Defence in depth: whoever answered, only allow rules for the relay's own tool (no tool
 * glob) that cover the call are stored; the rest are dropped (the approval itself stands). Roles
 * (who may edit a rule, who may grant for everyone) are the server's: the library treats whoever
 * calls `respond` as the relay's owner (lib/policy `checkGrantRules` applies them).
 */
async function grantAlways(ctx: RunContext, tool: ToolDefinition, request: RelayRequest, outcome: RelayOutcome): Promise<void> {
  const edited = outcome.response?.rule;
  const candidates: unknown[] = edited === undefined ? request.suggestedRules : Array.isArray(edited) ? edited : [edited];
  const call: ToolCall = { tool: request.tool, params: request.params, ...(request.agentId === 'main' ? {} : { agent: request.agentId }) };
  const rules = candidates.flatMap((rule) => {
    const parsed = RuleSchema.safeParse(rule);
    return parsed.success && grantFitsCall(parsed.data, call, { workspaceRoot: ctx.env.workspace, paramKinds: tool.paramKinds }) ? [parsed.data] : [];
  });
  if (rules.length === 0) return;
  const scope = outcome.response?.scope ?? 'session';
  await ctx.grants.add(ctx.sessionId, rules, scope, outcome.decidedBy);
  // A session grant covers this session's waiting calls; a global one everybody's.
  const grantsBySession = new Map<string, Rule[]>();
  for (const [id, pending] of ctx.pending) {
    const sessionId = pending.request.sessionId;
    if (scope === 'session' && sessionId !== ctx.sessionId) continue;
    let grants = grantsBySession.get(sessionId);
    if (!grants) grantsBySession.set(sessionId, (grants = await ctx.grants.list(sessionId)));
    const again = gate({
      policy: pending.level.policy,
      tool: pending.tool,
      rawInput: pending.input,
      agentId: pending.level.agentId,
      mode: pending.level.mode ?? pending.ctx.mode,
      grants,
      workspace: pending.ctx.env.workspace,
      inspection: pending.inspection,
    });
    if (again.kind === 'decided' && again.decision.action === 'allow') {
      await ctx.broker.resolve(id, { approved: true, reason: 'Covered by an "always allow" grant' }, 'grant').catch(() => undefined);
    }
  }
}
