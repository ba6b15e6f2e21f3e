// One tool call of a step, from the gate to its result: an unknown tool or invalid input is a tool
// error; deny is a denial; allow consumes the allow-once grants it used and executes; ask raises a
// relay (ask.ts) and executes only on an approval. Every way out goes through `finish`, which
// announces the `tool_result` once. Execution claims the call first (at most once, durably).
import { evaluate, type Rule } from '../../policy';
import type { RelayRequest } from '../../relay';
import { dynamicInterrupt } from '../approval';
import { ToolError } from '../tools/types';
import { askHuman, awaitRelay, type Answer } from './ask';
import { checkEdit, editNote, editRefusal } from './edit';
import { currentPolicy, emit, type CallResult, type CallScope, type GatedCall } from './context';
import { applyInspection, gate, inspectCall } from './gate';
import { adjuster, notifyObserver } from './observe';
import { denial } from './results';

type ToolOutcome = CallResult & { metadata?: Record<string, unknown> };

/** Announces the call's result (its `tool_result` event) and hands it back for the model. */
function finish({ ctx, level, call }: CallScope, { metadata, ...result }: ToolOutcome): CallResult {
  emit(ctx, level, {
    type: 'tool_result',
    toolCallId: call.toolCallId,
    name: call.toolName,
    output: result.output,
    isError: result.isError,
    denied: result.denied === true,
    metadata,
  });
  return result;
}

/**
 * One call failing to be decided (storage down while registering its relay, say) ends as a tool
 * error for that call alone: it never runs, and the other calls of the step are unaffected.
 */
export async function guarded(scope: CallScope, handle: () => Promise<CallResult>): Promise<CallResult> {
  try {
    return await handle();
  } catch (error) {
    if (scope.ctx.signal.aborted) throw error;
    return finish(scope, {
      output: `${scope.call.toolName} was not run: the call could not be decided (${(error as Error)?.message ?? String(error)}).`,
      isError: true,
    });
  }
}

export async function handleCall(scope: CallScope): Promise<CallResult> {
  const { ctx, level, call } = scope;
  const tool = level.tools.find((t) => t.name === call.toolName);
  if (!tool) {
    emit(ctx, level, { type: 'tool_call', toolCallId: call.toolCallId, name: call.toolName, params: call.input });
    return finish(scope, {
      output: `Unknown tool ${call.toolName}. Available: ${level.tools.map((t) => t.name).join(', ')}`,
      isError: true,
    });
  }
  const grants = await ctx.grants.list(ctx.sessionId);
  // Read per call: a policy saved while the run goes decides its next call.
  const judged = await currentPolicy(ctx, level);
  const mode = level.mode ?? ctx.mode;
  const gated = gate({
    policy: judged.policy,
    tool,
    rawInput: call.input,
    agentId: level.agentId,
    mode,
    grants,
    workspace: ctx.env.workspace,
    shouldApprove: dynamicInterrupt(ctx.interruptOn, tool.name),
  });
  if (gated.kind === 'invalid') {
    emit(ctx, level, { type: 'tool_call', toolCallId: call.toolCallId, name: call.toolName, params: call.input });
    return finish(scope, { output: gated.message, isError: true });
  }
  const checked: GatedCall = { ...scope, tool, input: gated.input, judged };
  const inspection = await inspectCall(tool, checked.input, ctx.env);
  const decision = inspection === undefined ? gated.decision : applyInspection(gated.decision, inspection, mode);
  notifyObserver(ctx.observer, () => ({
    runId: ctx.runId,
    sessionId: ctx.sessionId,
    toolCallId: call.toolCallId,
    agentId: level.agentId,
    call: gated.call,
    context: gated.evalContext,
    decision,
    policy: judged.policy.policy,
    agentPolicy: judged.agentPolicy,
    adjust: adjuster(checked.input, tool.name, {
      shouldApprove: dynamicInterrupt(ctx.interruptOn, tool.name),
      inspection,
      mode,
    }),
  }));
  emit(ctx, level, {
    type: 'tool_call',
    toolCallId: call.toolCallId,
    name: tool.name,
    params: checked.input,
    decision,
  });
  if (decision.action === 'deny') return finish(scope, denial(decision.explanation));
  if (decision.action === 'allow') {
    const used = decision.consumes?.grants ?? [];
    if (
      used.length > 0 &&
      (await ctx.grants.consume(ctx.sessionId, used.map((i) => grants[i]!).filter(Boolean))) === false
    )
      // Another call of this step used the allow-once grant up first: it allowed that call alone.
      return finish(scope, denial('The allow-once grant that allowed this call was used up by another call first'));
    return finish(scope, await execute(checked, { grants, approved: false }));
  }
  const answer = await askHuman(checked, decision, inspection);
  return runApproved(checked, answer, grants);
}

/**
 * The call once its relay is answered: a denial, or the approved call (as the approver edited it,
 * if they did: checked again here, so an edit that reached the store any other way runs only if
 * the tool's schema takes it and no deny rule matches it; the model reads a note of the change).
 */
async function runApproved(checked: GatedCall, answer: Answer, grants: Rule[]): Promise<CallResult> {
  const { outcome } = answer;
  if (outcome.status !== 'approved') return finish(checked, denial(outcome.reason ?? 'Denied'));
  try {
    // The policy of the moment: an edit is checked, and the tool's own evaluations are made, by it.
    const current: GatedCall = { ...checked, judged: await currentPolicy(checked.ctx, checked.level) };
    const edited = outcome.response?.params;
    if (edited === undefined)
      return finish(checked, await execute(current, { grants, approved: true, claimed: answer.announce }));
    const { ctx, level, tool, input } = checked;
    const check = checkEdit(tool, edited, {
      policy: current.judged.policy,
      agentId: level.agentId,
      workspace: ctx.env.workspace,
      approvals: answer.approvals,
    });
    if (!check.ok)
      return finish(
        checked,
        denial(
          check.kind === 'denied'
            ? check.decision.explanation
            : check.kind === 'needs_approvals'
              ? editRefusal(check)
              : `the edited call is not valid (${check.issues.map((i) => `${i.path || 'params'}: ${i.message}`).join('; ')})`,
        ),
      );
    const result = await execute(
      { ...current, input: check.params },
      { grants, approved: true, claimed: answer.announce },
    );
    return finish(checked, { ...result, output: `${editNote(input, check.params)}\n${result.output}` });
  } finally {
    answer.announce();
  }
}

/** A call of the step a restart interrupted: wait on its relay if it had one, else decide it again. */
export async function resumeCall(scope: CallScope, relay: RelayRequest | undefined): Promise<CallResult> {
  const { ctx, level, call } = scope;
  const tool = level.tools.find((t) => t.name === call.toolName);
  if (!relay || !tool) return handleCall(scope);
  const checked: GatedCall = { ...scope, tool, input: relay.params, judged: await currentPolicy(ctx, level) };
  const answer = await awaitRelay(checked, relay, await inspectCall(tool, relay.params, ctx.env));
  return runApproved(checked, answer, answer.outcome.status === 'approved' ? await ctx.grants.list(ctx.sessionId) : []);
}

interface Execution {
  /** The session's grants the decision saw (a tool's own `evaluate` judges by them too). */
  grants: Rule[];
  /** A human approved the call. */
  approved: boolean;
  /** Announces the approval (see `execute`). */
  claimed?: () => void;
}

/**
 * Claims the call, then runs it. `claimed` (announcing a human's approval) is called once the tool
 * has been started (its synchronous part: a command is handed to the spawn helper), or once the
 * claim failed: the approval itself was stored when the relay was settled, and announcing it
 * earlier would put its event append (PGlite runs one statement at a time, on the main thread)
 * ahead of the claim or the spawn, on the path from the decision to the tool's start.
 */
async function execute(scope: GatedCall, { grants, approved, claimed }: Execution): Promise<ToolOutcome> {
  const { ctx, tool, call } = scope;
  // A stopped run starts nothing, even a call approved at the last moment.
  if (ctx.signal.aborted) return { output: `${tool.name} was not run: the run was stopped.`, isError: true };
  if (ctx.executions) {
    let won: boolean;
    try {
      won = await ctx.executions.claim({ runId: ctx.runId, toolCallId: call.toolCallId, tool: tool.name });
    } catch (error) {
      claimed?.();
      // Without a record that it runs, it does not run.
      return {
        output: `${tool.name} was not run: its execution could not be recorded (${(error as Error).message}).`,
        isError: true,
      };
    }
    if (!won) {
      claimed?.();
      return {
        output: `${tool.name} was not run again: this call (${call.toolCallId}) has already been executed.`,
        isError: true,
      };
    }
  }
  const running = executeClaimed(scope, grants, approved);
  claimed?.();
  const result = await running;
  await ctx.executions
    ?.finish({ runId: ctx.runId, toolCallId: call.toolCallId, output: result.output, isError: result.isError })
    .catch(() => undefined);
  return result;
}

async function executeClaimed(
  { ctx, level, tool, input, call, judged }: GatedCall,
  grants: Rule[],
  approved: boolean,
): Promise<ToolOutcome> {
  const agent = level.agentId === 'main' ? {} : { agent: level.agentId };
  try {
    const result = await tool.execute(input, {
      ...ctx.env,
      toolCallId: call.toolCallId,
      runId: ctx.runId,
      signal: ctx.toolSignal,
      approved,
      trustedPolicy: ctx.trustedPolicy ?? judged.agentPolicy,
      ...agent,
      evaluate: (inner) =>
        evaluate(
          judged.policy,
          { ...inner, ...agent },
          {
            mode: level.mode ?? ctx.mode,
            grants,
            workspaceRoot: ctx.env.workspace,
            risk: level.tools.find((t) => t.name === inner.tool)?.risk,
          },
        ),
    });
    return { output: result.output, isError: result.isError === true, metadata: result.metadata };
  } catch (error) {
    const message =
      error instanceof ToolError ? error.message : `${tool.name} failed: ${(error as Error)?.message ?? String(error)}`;
    return { output: message, isError: true, metadata: error instanceof ToolError ? { code: error.code } : undefined };
  }
}
