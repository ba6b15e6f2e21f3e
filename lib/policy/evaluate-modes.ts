// The permission modes (bypassPermissions, acceptEdits, plan, dontAsk): how each adjusts a decision.
import * as explain from './explain';
import { EDIT_TOOLS } from './kinds';
import type { PreparedCall, Unit } from './match';
import { isInside, resolvePath } from './paths';
import type { Action, Decision, DecisionReason, EvaluationContext, Risk, RuleRef } from './types';

/** One unit's decision before the parts are combined; `once*` name the once-only rule or grant it used. */
export interface UnitDecision {
  action: Action;
  reason: DecisionReason;
  rule?: RuleRef;
  grant?: RuleRef;
  explanation: string;
  onceRule?: number;
  onceGrant?: number;
}

export function applyUnitModes(
  decision: UnitDecision,
  unit: Unit,
  prep: PreparedCall,
  mode: EvaluationContext['mode'],
): UnitDecision {
  let result = decision;
  const byDefault = result.reason === 'risk_default' || result.reason === 'default_action';
  if (result.action === 'ask' && byDefault) {
    if (mode === 'bypassPermissions') {
      result = {
        action: 'allow',
        reason: 'mode',
        explanation: 'Allowed: auto-approve mode (bypassPermissions) allows what would only ask by default.',
      };
    } else if (mode === 'acceptEdits' && isWorkspaceEdit(prep)) {
      result = {
        action: 'allow',
        reason: 'mode',
        explanation: 'Allowed: acceptEdits mode allows file edits inside the workspace.',
      };
    }
  }
  // What cannot be inspected is never allowed, and asks for its real reason unless a rule spoke.
  if (unit.opaque && result.action !== 'deny' && !(result.action === 'ask' && result.reason === 'matched_rule')) {
    return { action: 'ask', reason: 'unparseable', explanation: explain.unparseable(unit.opaque) };
  }
  return result;
}

function isWorkspaceEdit(prep: PreparedCall): boolean {
  if (!EDIT_TOOLS.has(prep.call.tool)) return false;
  const value = prep.call.params.path;
  return typeof value === 'string' && isInside(resolvePath(value, prep.paths), prep.paths.root);
}

export function applyCallModes(
  decision: Decision,
  mode: EvaluationContext['mode'],
  risk: Risk | undefined,
  tool: string,
): Decision {
  if (mode === 'plan' && risk !== 'read_only' && decision.action !== 'deny') {
    const { consumes: _consumed, ...rest } = decision;
    return {
      ...rest,
      action: 'deny',
      reason: 'mode',
      explanation: `Denied: plan mode allows read-only tools only, and ${tool} is ${risk ? risk.replace('_', '-') : 'of unknown risk'}.`,
    };
  }
  if (mode === 'dontAsk' && decision.action === 'ask') {
    return {
      ...decision,
      action: 'deny',
      reason: 'mode',
      explanation: `Denied: dontAsk mode turns every ask into a deny. (${decision.explanation})`,
    };
  }
  return decision;
}
