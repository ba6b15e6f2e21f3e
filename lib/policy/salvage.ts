// A stored policy that no longer validates (e.g. a regex condition written before regex conditions
// ran on RE2) must not stop the server, and must not open a door either. Each rule that fails on
// its own is replaced, at the same index so rule numbers keep their meaning: a deny or ask rule
// loses the patterns and conditions that failed, so it applies to every call of its tool (wider,
// never narrower); an allow rule becomes one that matches nothing.
import { compilePolicy } from './compile';
import { PolicyValidationError, type PolicyIssue } from './errors';
import { PolicySchema, type Policy, type Rule } from './types';

/** A param no call has: a rule constrained by it matches nothing. */
const DISABLED_RULE_PARAM = '__gatehouse_invalid_rule__';

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
      return {
        ...(id ? { id } : {}),
        action: r.action,
        tool,
        ...(agent ? { agent } : {}),
        description: `${r.action} every ${tool} call: ${note}`,
      };
    }
    return {
      ...(id ? { id } : {}),
      action: 'allow',
      tool,
      params: { [DISABLED_RULE_PARAM]: '' },
      description: `disabled: ${note}`,
    };
  }
}
