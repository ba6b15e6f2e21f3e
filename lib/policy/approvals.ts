// Who must approve an asking call: the `approvals` of the ask rules that decided it (the call's own
// rule, or any asking part of a shell command), combined so that approving by the requirement
// satisfies every one of them: the most people any of them asks, each with a role all of them
// accept. A rule with `approvals` (even `count: 1`) wants named people; without it, anyone who
// may decide the run. Pure.
import type { CompiledPolicy } from './compile';
import type { Decision, Policy, Rule } from './types';

export type ApprovalRequirement = NonNullable<Rule['approvals']>;

/** The roles that may approve when a rule names none. */
export const DEFAULT_APPROVER_ROLES = ['approver', 'admin'] as const;

/**
 * The requirement of an ask decision whose rules name approvers, else undefined (one approval,
 * anyone who may decide). `roles` is left out when no rule names any (the default roles); it is
 * empty when the rules name roles with none in common: then nobody may approve, only deny.
 */
export function approvalRequirement(
  policy: Policy | CompiledPolicy,
  decision: Decision,
): ApprovalRequirement | undefined {
  if (decision.action !== 'ask') return undefined;
  const rules = 'policy' in policy ? policy.policy.rules : policy.rules;
  const refs = [decision.rule, ...(decision.parts ?? []).map((p) => (p.action === 'ask' ? p.rule : undefined))];
  let count = 0;
  let roles: readonly string[] | undefined;
  let named = false;
  for (const ref of refs) {
    if (ref?.action !== 'ask') continue;
    const wanted = rules[ref.index]?.approvals;
    if (!wanted) continue;
    count = Math.max(count, wanted.count);
    named ||= wanted.roles !== undefined;
    const accepted = approverRoles(wanted);
    roles = roles === undefined ? [...new Set(accepted)] : roles.filter((role) => accepted.includes(role));
  }
  if (count === 0) return undefined;
  return named ? { count, roles: [...roles!] } : { count };
}

/** The roles whose people count toward a requirement. */
export const approverRoles = (wanted: ApprovalRequirement): readonly string[] => wanted.roles ?? DEFAULT_APPROVER_ROLES;
