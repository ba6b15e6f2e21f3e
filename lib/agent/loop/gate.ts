// The gate for one tool call: validate the input with the tool's schema, then ask lib/policy,
// then apply the dynamic `interruptOn.shouldApprove` setting and what the tool's own `inspect`
// found (given by the caller, which ran it). Pure apart from calling them.
import {
  evaluate,
  type CompiledPolicy,
  type Decision,
  type EvaluationContext,
  type Mode,
  type Rule,
  type ToolCall,
} from '../../policy';
import type { ToolDefinition, ToolEnvironment } from '../tools/types';

export type GateResult =
  | { kind: 'invalid'; message: string }
  | {
      kind: 'decided';
      input: Record<string, unknown>;
      call: ToolCall;
      decision: Decision;
      evalContext: EvaluationContext;
    };

export interface GateOptions {
  policy: CompiledPolicy;
  tool: ToolDefinition;
  rawInput: unknown;
  agentId: string;
  mode: Mode;
  grants: Rule[];
  workspace: string;
  shouldApprove?: (args: Record<string, unknown>) => boolean;
  /** What the tool's `inspect` found for this call: it then asks whatever allowed it (see applyInspection). */
  inspection?: string;
}

export function gate(options: GateOptions): GateResult {
  const parsed = options.tool.inputSchema.safeParse(options.rawInput);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`)
      .join('; ');
    return { kind: 'invalid', message: `Invalid input for ${options.tool.name}: ${issues}` };
  }
  const input = (
    typeof parsed.data === 'object' && parsed.data !== null ? parsed.data : { value: parsed.data }
  ) as Record<string, unknown>;
  const call: ToolCall = {
    tool: options.tool.name,
    params: input,
    ...(options.agentId === 'main' ? {} : { agent: options.agentId }),
  };
  const evalContext: EvaluationContext = {
    mode: options.mode,
    grants: options.grants,
    risk: options.tool.risk,
    paramKinds: options.tool.paramKinds,
    workspaceRoot: options.workspace,
  };
  let decision = evaluate(options.policy, call, evalContext);
  if (options.shouldApprove && decision.action !== 'deny')
    decision = applyShouldApprove(decision, options.shouldApprove, input, options.tool.name);
  if (options.inspection !== undefined) decision = applyInspection(decision, options.inspection, options.mode);
  return { kind: 'decided', input, call, decision, evalContext };
}

/** `shouldApprove` acts like a rule: true adds an ask, false an allow (which an explicit ask rule still beats). */
export function applyShouldApprove(
  decision: Decision,
  shouldApprove: (args: Record<string, unknown>) => boolean,
  input: Record<string, unknown>,
  tool: string,
): Decision {
  let ask: boolean;
  try {
    ask = shouldApprove(input) !== false;
  } catch (error) {
    return {
      action: 'ask',
      reason: 'default_action',
      explanation: `Needs approval: interruptOn.shouldApprove for ${tool} failed (${(error as Error).message}).`,
    };
  }
  if (ask) {
    return decision.action === 'ask'
      ? decision
      : {
          action: 'ask',
          reason: 'matched_rule',
          explanation: `Needs approval: interruptOn.shouldApprove requires it for ${tool}.`,
        };
  }
  const explicitAsk = decision.action === 'ask' && decision.reason === 'matched_rule' && decision.rule !== undefined;
  if (decision.action === 'allow' || explicitAsk || decision.reason === 'unparseable') return decision;
  return {
    action: 'allow',
    reason: 'matched_rule',
    explanation: `Allowed: interruptOn.shouldApprove needs no approval for this ${tool} call.`,
  };
}

/**
 * A fact a tool's `inspect` found makes the call opaque, as a command that cannot be inspected
 * is: it asks whatever allowed it (a rule, a grant, a mode, shouldApprove), a deny stands, and
 * dontAsk turns the ask into a deny. An ask keeps its rule (its timeout), with the fact added.
 */
export function applyInspection(decision: Decision, inspection: string, mode: Mode): Decision {
  if (decision.action === 'deny') return decision;
  const asked: Decision =
    decision.action === 'ask'
      ? { ...decision, explanation: `${decision.explanation} Also: ${inspection}.` }
      : { action: 'ask', reason: 'unparseable', explanation: `Needs approval: ${inspection}.` };
  if (mode === 'dontAsk')
    return {
      ...asked,
      action: 'deny',
      reason: 'mode',
      explanation: `Denied: dontAsk mode turns every ask into a deny. (${asked.explanation})`,
    };
  return asked;
}

/** Runs the tool's `inspect`; one that fails asks (fail closed). */
export async function inspectCall(
  tool: ToolDefinition,
  input: Record<string, unknown>,
  env: ToolEnvironment,
): Promise<string | undefined> {
  if (!tool.inspect) return undefined;
  try {
    return await tool.inspect(input, env);
  } catch (error) {
    return `${tool.name} could not inspect the call (${(error as Error)?.message ?? String(error)})`;
  }
}
