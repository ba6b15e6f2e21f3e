// Who must approve an asking call: the `approvals` of every ask rule that matches it, combined so
// that approving by the requirement satisfies each of them: the most people any of them asks, each
// with a role all of them accept. A rule with `approvals` (even `count: 1`) wants named people;
// without it, anyone who may decide the run. The engine names only the first ask rule that matched
// each part (and tries rules on the files and hosts a command touches after every rule on the
// command itself), so a broader ask rule that names nobody would hide one that names two admins:
// given the call, each rule that names approvers is matched on its own. Pure.
import { compilePolicy, isCompiledPolicy, type CompiledPolicy } from './compile';
import { evaluate } from './evaluate';
import type { Decision, EvaluationContext, Policy, Rule, RuleRef, ToolCall } from './types';

export type ApprovalRequirement = NonNullable<Rule['approvals']>;

/** The roles that may approve when a rule names none. */
export const DEFAULT_APPROVER_ROLES = ['approver', 'admin'] as const;

/**
 * The requirement of an ask decision whose rules name approvers, else undefined (one approval,
 * anyone who may decide). `roles` is left out when no rule names any (the default roles); it is
 * empty when the rules name roles with none in common: then nobody may approve, only deny. With
 * the call (and the context it was decided in), every ask rule naming approvers that matches it
 * counts, not only the ones the decision names.
 */
export function approvalRequirement(
  policy: Policy | CompiledPolicy,
  decision: Decision,
  call?: ToolCall,
  ctx?: EvaluationContext,
): ApprovalRequirement | undefined {
  if (decision.action !== 'ask') return undefined;
  const rules = isCompiledPolicy(policy) ? policy.policy.rules : policy.rules;
  const refs = [decision.rule, ...(decision.parts ?? []).map((p) => (p.action === 'ask' ? p.rule : undefined))];
  const indexes = new Set(refs.flatMap((ref) => (ref?.action === 'ask' ? [ref.index] : [])));
  if (call) for (const index of matchingApproverRules(policy, call, ctx ?? {})) indexes.add(index);
  let count = 0;
  let roles: readonly string[] | undefined;
  let named = false;
  for (const index of indexes) {
    const wanted = rules[index]?.approvals;
    if (!wanted) continue;
    count = Math.max(count, wanted.count);
    named ||= wanted.roles !== undefined;
    const accepted = approverRoles(wanted);
    roles = roles === undefined ? [...new Set(accepted)] : roles.filter((role) => accepted.includes(role));
  }
  if (count === 0) return undefined;
  return named ? { count, roles: [...roles!] } : { count };
}

/** Each ask rule that names approvers, alone in a policy that otherwise allows, by its index. */
const approverRulesOf = new WeakMap<object, { index: number; alone: CompiledPolicy }[]>();

function approverRules(policy: Policy | CompiledPolicy) {
  let found = approverRulesOf.get(policy);
  if (!found) {
    const rules = isCompiledPolicy(policy) ? policy.policy.rules : policy.rules;
    found = rules.flatMap((rule, index) =>
      rule.action === 'ask' && rule.approvals !== undefined
        ? [{ index, alone: compilePolicy({ defaultAction: 'allow', rules: [rule] }) }]
        : [],
    );
    approverRulesOf.set(policy, found);
  }
  return found;
}

/** The indexes of the ask rules naming approvers that match the call or any part of it. */
function matchingApproverRules(policy: Policy | CompiledPolicy, call: ToolCall, ctx: EvaluationContext): number[] {
  const matches = (ref: RuleRef | undefined) => ref?.action === 'ask';
  return approverRules(policy).flatMap(({ index, alone }) => {
    // A mode never lifts an explicit ask rule and a grant never beats one: neither matters here.
    const decided = evaluate(alone, call, { ...ctx, mode: 'default', grants: [] });
    return matches(decided.rule) || (decided.parts ?? []).some((part) => matches(part.rule)) ? [index] : [];
  });
}

/** The roles whose people count toward a requirement. */
export const approverRoles = (wanted: ApprovalRequirement): readonly string[] => wanted.roles ?? DEFAULT_APPROVER_ROLES;
