// How many people must approve an asking call: the strictest `approvals` of the ask rules that
// decided it (the call's own rule, or any asking part of a shell command). Pure.
import type { CompiledPolicy } from './compile';
import type { Decision, Policy, Rule } from './types';

export type ApprovalRequirement = NonNullable<Rule['approvals']>;

/** The roles that may approve when a rule names none. */
export const DEFAULT_APPROVER_ROLES = ['approver', 'admin'] as const;

/** The requirement of an ask decision with more than one approver, else undefined (one approval, anyone who may decide). */
export function approvalRequirement(
  policy: Policy | CompiledPolicy,
  decision: Decision,
): ApprovalRequirement | undefined {
  if (decision.action !== 'ask') return undefined;
  const rules = 'policy' in policy ? policy.policy.rules : policy.rules;
  const refs = [decision.rule, ...(decision.parts ?? []).map((p) => (p.action === 'ask' ? p.rule : undefined))];
  let strictest: ApprovalRequirement | undefined;
  for (const ref of refs) {
    if (ref?.action !== 'ask') continue;
    const wanted = rules[ref.index]?.approvals;
    if (wanted && wanted.count > 1 && (!strictest || wanted.count > strictest.count)) strictest = wanted;
  }
  return strictest;
}
