// A stored policy that no longer validates (e.g. a regex condition written before regex conditions
// ran on RE2) must not stop the server, and must not open a door either. Each rule that fails on
// its own is replaced, at the same index so rule numbers keep their meaning: a deny or ask rule
// loses the patterns and conditions that failed, so it applies to every call of its tool (wider,
// never narrower), and keeps who must approve it (an ask rule whose approvals fail denies); an
// allow rule becomes one that matches nothing.
import { compilePolicy } from './compile';
import { PolicyValidationError, type PolicyIssue } from './errors';
import { MAX_NAME_LENGTH } from './limits';
import { PolicySchema, RuleSchema, type Policy, type Rule } from './types';

/** A param of a disabled allow rule, so the rule reads as disabled (a call may carry any param: not the guard). */
const DISABLED_RULE_PARAM = '__gatehouse_invalid_rule__';

/** An agent name longer than any call's may be (such a call is malformed and denied): a rule for it matches nothing. */
const DISABLED_RULE_AGENT = 'gatehouse-disabled-rule-'.padEnd(MAX_NAME_LENGTH + 1, '-');

/** `approvals` that validate on their own, so a salvaged ask rule still wants the people it named. */
const ApprovalsSchema = RuleSchema.shape.approvals;

export interface SalvagedPolicy {
  policy: Policy;
  /** What did not validate and was replaced; empty for a valid policy. */
  issues: PolicyIssue[];
}

export function salvagePolicy(input: unknown): SalvagedPolicy {
  try {
    return { policy: compilePolicy(input as Policy).policy, issues: [] };
  } catch (error) {
    if (!(error instanceof PolicyValidationError)) throw error;
    const doc = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
    const rules = Array.isArray(doc.rules) ? doc.rules : [];
    const base = PolicySchema.safeParse({ defaultAction: doc.defaultAction, riskDefaults: doc.riskDefaults });
    const salvaged: Rule[] = rules.map((rule) => salvageRule(rule));
    // Tests never change a decision: kept when they still validate, so an admin fixing the rules keeps them.
    const tests = PolicySchema.shape.tests.safeParse(doc.tests);
    const policy = compilePolicy({
      ...(base.success ? base.data : { defaultAction: 'ask' }),
      rules: salvaged,
      ...(tests.success && tests.data ? { tests: tests.data } : {}),
    }).policy;
    return { policy, issues: error.issues };
  }
}

function salvageRule(rule: unknown): Rule {
  try {
    return compilePolicy({ rules: [rule as Rule] }).policy.rules[0]!;
  } catch {
    const r = typeof rule === 'object' && rule !== null ? (rule as Record<string, unknown>) : {};
    const tool = typeof r.tool === 'string' && r.tool.trim() !== '' && r.tool.length <= 256 ? r.tool : '*';
    const id = typeof r.id === 'string' && r.id.length > 0 && r.id.length <= 200 ? r.id : undefined;
    const agent = typeof r.agent === 'string' && r.agent.trim() !== '' && r.agent.length <= 256 ? r.agent : undefined;
    const note = 'it did not validate when loaded';
    if (r.action === 'deny' || r.action === 'ask') {
      // An ask rule that named its approvers keeps them; one whose approvals fail cannot say who may
      // approve, so nobody does: it denies.
      const approvals =
        r.action === 'ask' && r.approvals !== undefined ? ApprovalsSchema.safeParse(r.approvals) : undefined;
      const action = approvals?.success === false ? 'deny' : r.action;
      return {
        ...(id ? { id } : {}),
        action,
        tool,
        ...(agent ? { agent } : {}),
        ...(approvals?.success && approvals.data ? { approvals: approvals.data } : {}),
        description: `${action} every ${tool} call: ${note}`,
      };
    }
    return {
      ...(id ? { id } : {}),
      action: 'allow',
      tool,
      agent: DISABLED_RULE_AGENT,
      params: { [DISABLED_RULE_PARAM]: '' },
      description: `disabled: ${note}`,
    };
  }
}
