// Pure helpers of the rule editor: a Rule <-> the form's values, validation with the engine's own
// RuleSchema, field errors (client or server) mapped onto the form's inputs, and whole-policy edits.
// Invariant: valuesToRule(ruleToValues(r)) gives back r for every valid rule.
import { RuleSchema, type Action, type ConditionOp, type Policy, type Rule } from '../policy/types';

export interface ParamRow {
  key: string;
  pattern: string;
}

export interface ConditionRow {
  key: string;
  op: ConditionOp;
  value: string;
}

export interface RuleFormValues {
  id: string;
  description: string;
  action: Action;
  tool: string;
  agent: string;
  params: ParamRow[];
  conditions: ConditionRow[];
  /** As typed; empty means no timeout. */
  timeoutS: string;
  once: boolean;
  /** Ask rules: how many people must approve, as typed (empty or 1: one). */
  approvals: string;
  /** Ask rules with approvals: the roles that count, comma-separated (empty: approver or admin). */
  approvalRoles: string;
  /** Not editable in the form, but kept so an edit does not drop it. */
  onTimeout?: 'deny';
}

/** Form field keys: `tool`, `params.0.pattern`, `conditions.1.value`, ... and `form` for the rest. */
export type FieldErrors = Record<string, string>;

export interface Issue {
  path: string;
  message: string;
}

export function emptyValues(): RuleFormValues {
  return {
    id: '',
    description: '',
    action: 'ask',
    tool: '',
    agent: '',
    params: [],
    conditions: [],
    timeoutS: '',
    once: false,
    approvals: '',
    approvalRoles: '',
  };
}

export function ruleToValues(rule: Rule): RuleFormValues {
  return {
    id: rule.id ?? '',
    description: rule.description ?? '',
    action: rule.action,
    tool: rule.tool,
    agent: rule.agent ?? '',
    params: Object.entries(rule.params ?? {}).map(([key, pattern]) => ({ key, pattern })),
    conditions: (rule.when ?? []).map((c) => ({ key: c.key, op: c.op, value: c.value })),
    timeoutS: rule.timeoutS === undefined ? '' : String(rule.timeoutS),
    once: rule.once === true,
    approvals: rule.approvals ? String(rule.approvals.count) : '',
    approvalRoles: rule.approvals?.roles?.join(', ') ?? '',
    ...(rule.onTimeout ? { onTimeout: rule.onTimeout } : {}),
  };
}

export type ValuesResult = { ok: true; rule: Rule } | { ok: false; errors: FieldErrors };

/** Builds the rule the form describes and validates it with RuleSchema (the server's schema too). */
export function valuesToRule(values: RuleFormValues): ValuesResult {
  const errors: FieldErrors = {};
  const params: Record<string, string> = {};
  values.params.forEach((row, i) => {
    const key = row.key.trim();
    if (key === '' && row.pattern === '') return;
    if (key === '') errors[`params.${i}.key`] = 'Name the parameter (e.g. command, path, url)';
    else if (Object.hasOwn(params, key)) errors[`params.${i}.key`] = `"${key}" is already listed`;
    else params[key] = row.pattern;
  });
  const timeout = values.timeoutS.trim();
  let timeoutS: number | undefined;
  if (timeout !== '') {
    timeoutS = Number(timeout);
    if (!Number.isInteger(timeoutS)) errors.timeoutS = 'Enter a whole number of seconds';
  }
  const candidate: Record<string, unknown> = { action: values.action, tool: values.tool.trim() };
  if (values.id.trim()) candidate.id = values.id.trim();
  if (values.description.trim()) candidate.description = values.description.trim();
  if (values.agent.trim()) candidate.agent = values.agent.trim();
  if (Object.keys(params).length > 0) candidate.params = params;
  if (values.conditions.length > 0)
    candidate.when = values.conditions.map((c) => ({ key: c.key.trim(), op: c.op, value: c.value }));
  if (timeoutS !== undefined && !errors.timeoutS) candidate.timeoutS = timeoutS;
  if (values.onTimeout) candidate.onTimeout = values.onTimeout;
  if (values.once) candidate.once = true;
  const approvals = values.approvals.trim();
  if (approvals !== '' && approvals !== '1') {
    const count = Number(approvals);
    if (!Number.isInteger(count)) errors.approvals = 'Enter a whole number of people (1 to 5)';
    else {
      const roles = values.approvalRoles
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean);
      candidate.approvals = { count, ...(roles.length > 0 ? { roles } : {}) };
    }
  }

  const parsed = RuleSchema.safeParse(candidate);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      message: issue.message,
    }));
    Object.assign(errors, fieldErrors(issues, '', values), errors);
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  if (!parsed.success) return { ok: false, errors: { form: 'The rule is not valid' } };
  return { ok: true, rule: parsed.data };
}

/**
 * Maps issue paths of a rule (`params.command`, `when.0.value`, `timeoutS`) onto form keys. With a
 * prefix (e.g. `rules.3.` for the server's answer to a whole-policy save) only that rule's issues
 * count; anything that matches no input lands on `form`.
 */
export function fieldErrors(issues: readonly Issue[], prefix: string, values: RuleFormValues): FieldErrors {
  const errors: FieldErrors = {};
  const add = (key: string, message: string) => {
    if (!errors[key]) errors[key] = message;
  };
  for (const issue of issues) {
    if (!issue.path.startsWith(prefix)) {
      add('form', `${issue.path || 'policy'}: ${issue.message}`);
      continue;
    }
    const [head, second, third] = issue.path.slice(prefix.length).split('.');
    if (head === 'params' && second !== undefined) {
      const row = values.params.findIndex((p) => p.key.trim() === second);
      add(row >= 0 ? `params.${row}.pattern` : 'form', issue.message);
    } else if (head === 'when' && second !== undefined && /^\d+$/.test(second)) {
      add(`conditions.${second}.${third === 'key' || third === 'op' ? third : 'value'}`, issue.message);
    } else if (head && ['id', 'description', 'action', 'tool', 'agent', 'timeoutS'].includes(head)) {
      add(head, issue.message);
    } else if (head === 'approvals') {
      add(second === 'roles' ? 'approvalRoles' : 'approvals', issue.message);
    } else {
      add('form', issue.message);
    }
  }
  return errors;
}

/** The policy with the rule at `index` replaced, or appended when index is null. */
export function withRule(policy: Policy, index: number | null, rule: Rule): Policy {
  const rules = index === null ? [...policy.rules, rule] : policy.rules.map((r, i) => (i === index ? rule : r));
  return { ...policy, rules };
}

export function withoutRule(policy: Policy, index: number): Policy {
  return { ...policy, rules: policy.rules.filter((_, i) => i !== index) };
}

/** How a rule is named on screen: its id, else its position. */
export function ruleName(rule: Rule, index: number): string {
  return rule.id ?? `#${index + 1}`;
}
