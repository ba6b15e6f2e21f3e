// Whether Always Allow keeps its word for a call: the rules it would add, judged by the one grant
// check (judgeGrant) under the policy the call was decided by, cover the whole call. If not: why
// not (the engine's own explanation: a redirection, a risky assignment or dangerous option the
// pattern does not spell out, another part) and the rule that stops it (an ask rule asks whatever
// is granted). Pure.
import type { CompiledPolicy } from './compile';
import { judgeGrant, type GrantContext } from './grant-check';
import type { AlwaysAllowVerdict, Decision, Rule, ToolCall } from './types';

/**
 * The verdict on `rules` (what Always Allow would store) for `call` under `policy`. When they do not
 * cover it, the engine's decision with `explainWith` (the rules derived before the filter that
 * dropped those that cover nothing) says why: the dropped rule's own obstacle, not "no rule".
 */
export function alwaysAllowVerdict(
  policy: CompiledPolicy,
  call: ToolCall,
  rules: readonly Rule[],
  ctx: GrantContext = {},
  explainWith: readonly Rule[] = rules,
): AlwaysAllowVerdict {
  if (rules.length > 0 && judgeGrant(rules, call, ctx, policy).coverage === 'all') return { covers: true };
  const explained = explainWith.length > 0 ? explainWith : rules;
  if (explained.length === 0) return { covers: false, reason: 'No rule can be suggested for this call.' };
  return whyNot(judgeGrant(explained, call, ctx, policy).decision);
}

function whyNot(decision: Decision): AlwaysAllowVerdict {
  const parts = decision.parts ?? [];
  const stuck = parts.find((part) => part.action !== 'allow');
  const source = stuck ?? decision;
  const prefix = stuck && parts.length > 1 ? `Part \`${stuck.command}\`: ` : '';
  const rule = source.rule && source.rule.action !== 'allow' ? source.rule : undefined;
  return { covers: false, reason: `${prefix}${source.explanation}`, ...(rule ? { rule } : {}) };
}
