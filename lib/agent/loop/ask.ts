// Asking a human: the relay a call raises when the policy says ask, waiting for its outcome (also
// after a restart), an approval handler's answer, and Always Allow, which stores the grants and
// settles the other waiting calls they now cover. Anything but an approval is a denial.
import { randomUUID } from 'node:crypto';
import {
  approvalRequirement,
  grantFitsCall,
  type CompiledPolicy,
  RuleSchema,
  type Decision,
  type EvaluationContext,
  type Rule,
  type ToolCall,
} from '../../policy';
import type { Approver, RelayOutcome, RelayRequest, RelayResponse, Resolution } from '../../relay';
import { dynamicInterrupt, renderPrompt } from '../approval';
import { currentPolicy, emit, type GatedCall, type RunContext } from './context';
import { checkEdit, EditRefusedError } from './edit';
import { gate } from './gate';
import { suggestAlwaysAllow } from './suggest';

/** A relay's outcome, and `announce`, which emits its `relay_resolved` event (once, however often called). */
export interface Answer {
  outcome: RelayOutcome;
  announce: () => void;
  /** What the relay was asked with (several approvers), for the edit's check before it runs. */
  approvals?: RelayRequest['approvals'];
}

function timeoutOf(policy: CompiledPolicy, decision: Decision, fallbackS: number): number {
  const rule = decision.rule ? policy.policy.rules[decision.rule.index] : undefined;
  return rule?.timeoutS ?? fallbackS;
}

export async function askHuman(scope: GatedCall, decision: Decision, inspection?: string): Promise<Answer> {
  const { ctx, level, tool, input } = scope;
  // The policy that decided: the decision's rule indexes point into it.
  const { policy } = scope.judged;
  const call = { tool: tool.name, params: input, ...(level.agentId === 'main' ? {} : { agent: level.agentId }) };
  const { suggestedRules, alwaysAllow, autoApprove } = suggestAlwaysAllow(
    policy,
    tool,
    input,
    call,
    ctx.env,
    inspection,
    dynamicInterrupt(ctx.interruptOn, tool.name) !== undefined,
  );
  const preview = tool.preview ? await tool.preview(input, ctx.env).catch(() => undefined) : undefined;
  const now = Date.now();
  const request: RelayRequest = {
    id: randomUUID(),
    kind: 'permission',
    runId: ctx.runId,
    sessionId: ctx.sessionId,
    agentId: level.agentId,
    parents: level.parents,
    toolCallId: scope.call.toolCallId,
    tool: tool.name,
    params: input,
    risk: tool.risk,
    decision,
    suggestedRules,
    alwaysAllow,
    autoApprove,
    ...(preview ? { preview } : {}),
    ...approvalsOf(policy, decision, call, {
      risk: tool.risk,
      paramKinds: tool.paramKinds,
      workspaceRoot: ctx.env.workspace,
    }),
    prompt: renderPrompt(ctx.promptTemplates[tool.name] ?? ctx.promptTemplates['*'] ?? '', tool.name, input),
    createdAt: now,
    expiresAt: now + timeoutOf(policy, decision, ctx.approvalTimeoutS) * 1000,
  };
  await ctx.broker.register(request);
  // The request's own fields, flat on the event (the seed design's shape), and `respond` beside them.
  emit(ctx, level, {
    ...request,
    type: 'relay',
    respond: (response) => answerOnce(ctx, scope, request, response),
    respondAs: (approver, response) => answerAs(ctx, scope, request, approver, response),
  });
  if (ctx.onApproval) void answerWithHandler(ctx, request);
  return awaitRelay(scope, request, inspection);
}

/**
 * `respond` for the event: the seed design's consumers call it without awaiting (a timer's late
 * "deny" after the human answered, a second key press), so a refused second answer must not
 * become an unhandled rejection that ends their process. Whoever awaits still gets the error.
 */
function answerOnce(
  ctx: RunContext,
  scope: GatedCall,
  request: RelayRequest,
  response: RelayResponse,
): Promise<RelayOutcome> {
  const answered = Promise.resolve().then(async () =>
    ctx.broker.resolve(request.id, await checkedEdit(scope, request, response), 'user'),
  );
  answered.catch(() => undefined);
  return answered;
}

function answerAs(
  ctx: RunContext,
  scope: GatedCall,
  request: RelayRequest,
  approver: Approver,
  response: RelayResponse,
): Promise<Resolution> {
  const answered = Promise.resolve().then(async () =>
    ctx.broker.decide(request.id, await checkedEdit(scope, request, response), approver),
  );
  answered.catch(() => undefined);
  return answered;
}

/**
 * An approval's edited params as the tool parses them, checked by the policy of the moment;
 * EditRefusedError (nothing decided) when invalid or denied.
 */
async function checkedEdit(
  { ctx, level, tool }: GatedCall,
  request: RelayRequest,
  response: RelayResponse,
): Promise<RelayResponse> {
  if (!response.approved || response.params === undefined) return response;
  const { policy } = await currentPolicy(ctx, level);
  const check = checkEdit(tool, response.params, {
    policy,
    agentId: level.agentId,
    workspace: ctx.env.workspace,
    approvals: request.approvals,
  });
  if (!check.ok) throw new EditRefusedError(request.id, check);
  return { ...response, params: check.params };
}

/** Who must approve: the `approvals` of every ask rule that matches the call (approvalRequirement). */
function approvalsOf(
  policy: CompiledPolicy,
  decision: Decision,
  call: ToolCall,
  evalContext: EvaluationContext,
): Pick<RelayRequest, 'approvals'> {
  const wanted = approvalRequirement(policy, decision, call, evalContext);
  return wanted ? { approvals: wanted } : {};
}

/**
 * Waits for a registered relay's outcome (also after a restart), then applies Always Allow. Any
 * outcome but an approval is announced at once; an approval is announced by the caller once the
 * call is claimed (see `execute`, call.ts).
 */
export async function awaitRelay(scope: GatedCall, request: RelayRequest, inspection?: string): Promise<Answer> {
  const { ctx, level, tool, input } = scope;
  ctx.pending.set(request.id, { ctx, level, tool, input, request, inspection });
  const outcome = await ctx.broker.wait(request.id, {
    signal: ctx.signal,
    onProgress: (progress) =>
      emit(ctx, level, {
        type: 'relay_progress',
        relayId: request.id,
        toolCallId: request.toolCallId,
        approvals: progress.approvals,
        needed: progress.needed,
        ...(progress.params ? { params: progress.params } : {}),
      }),
  });
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
      ...(outcome.status === 'approved' && outcome.response?.params ? { params: outcome.response.params } : {}),
      ...(outcome.approvals ? { approvals: outcome.approvals } : {}),
    });
  };
  if (outcome.status !== 'approved') announce();
  else if (outcome.response?.always) await grantAlways(scope, request, outcome);
  return { outcome, announce, ...(request.approvals ? { approvals: request.approvals } : {}) };
}

async function answerWithHandler(ctx: RunContext, request: RelayRequest): Promise<void> {
  const handler = ctx.onApproval!;
  try {
    // Only people count toward a relay whose rule names approvers: a handler may deny it, never approve it.
    if (handler === 'auto-approve' && request.approvals !== undefined) return;
    const response =
      handler === 'auto-approve'
        ? { approved: true }
        : handler === 'auto-deny'
          ? { approved: false, reason: 'Denied automatically' }
          : await handler(request);
    if (response.approved && request.approvals !== undefined) return;
    await ctx.broker.resolve(request.id, response, 'handler');
  } catch (error) {
    // A failing handler is a denial, never an approval.
    await ctx.broker
      .resolve(
        request.id,
        { approved: false, reason: `The approval handler failed: ${(error as Error)?.message ?? String(error)}` },
        'system',
      )
      .catch(() => undefined);
  }
}

/**
 * Always Allow: store the rules (as edited by the human), then settle the pending relays they now
 * cover. Defence in depth: whoever answered, only allow rules for the relay's own tool (no tool
 * glob) that cover the call are stored; the rest are dropped (the approval itself stands). Roles
 * (who may edit a rule, who may grant for everyone) are the server's: the library treats whoever
 * calls `respond` as the relay's owner (lib/policy `checkGrantRules` applies them).
 */
async function grantAlways(
  { ctx, level, tool }: GatedCall,
  request: RelayRequest,
  outcome: RelayOutcome,
): Promise<void> {
  const editedRule = outcome.response?.rule;
  // An edited call: the grant is the one suggested for the call that runs, not the agent's.
  const params = outcome.response?.params ?? request.params;
  const call: ToolCall = {
    tool: request.tool,
    params,
    ...(request.agentId === 'main' ? {} : { agent: request.agentId }),
  };
  const suggested =
    outcome.response?.params === undefined
      ? request.suggestedRules
      : suggestAlwaysAllow((await currentPolicy(ctx, level)).policy, tool, params, call, ctx.env, undefined, false)
          .suggestedRules;
  const candidates: unknown[] =
    editedRule === undefined ? suggested : Array.isArray(editedRule) ? editedRule : [editedRule];
  const rules = candidates.flatMap((rule) => {
    const parsed = RuleSchema.safeParse(rule);
    return parsed.success &&
      grantFitsCall(parsed.data, call, { workspaceRoot: ctx.env.workspace, paramKinds: tool.paramKinds })
      ? [parsed.data]
      : [];
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
    // Judged by the policy of the moment: a rule saved since the call asked may keep it waiting.
    const policy = await currentPolicy(pending.ctx, pending.level).then(
      (judged) => judged.policy,
      () => undefined,
    );
    if (!policy) continue;
    const again = gate({
      policy,
      tool: pending.tool,
      rawInput: pending.input,
      agentId: pending.level.agentId,
      mode: pending.level.mode ?? pending.ctx.mode,
      grants,
      workspace: pending.ctx.env.workspace,
      inspection: pending.inspection,
    });
    if (again.kind === 'decided' && again.decision.action === 'allow') {
      await ctx.broker
        .resolve(id, { approved: true, reason: 'Covered by an "always allow" grant' }, 'grant')
        .catch(() => undefined);
    }
  }
}
