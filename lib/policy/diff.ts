// What replacing one policy with another changes: rules added, removed and changed, the default
// action and risk defaults, and which of the built-in safety denies would be lost. Rules with an
// id are matched by id (same id, other content = changed); rules without one by their content, so
// an edited anonymous rule shows as one removed and one added. Pure and total.
import { DEFAULT_POLICY } from './defaults';
import type { Action, Policy, RiskDefaults, Rule } from './types';

export interface RuleChange {
  before: Rule;
  after: Rule;
}

export interface PolicyDiff {
  added: Rule[];
  removed: Rule[];
  changed: RuleChange[];
  /** How many rules stay exactly as they are. */
  unchanged: number;
  defaultAction?: { before: Action; after: Action };
  riskDefaults?: { before: RiskDefaults; after: RiskDefaults };
  /** Built-in deny rules (by id) that the new policy drops or turns into something other than deny. */
  safetyDeniesLost: Rule[];
}

/** JSON with sorted keys and no undefined members, so two equal rules always give the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const BUILTIN_IDS: ReadonlySet<string> = new Set((DEFAULT_POLICY.rules ?? []).flatMap((r) => (r.id ? [r.id] : [])));
const BUILTIN_DENY_IDS: ReadonlySet<string> = new Set(
  (DEFAULT_POLICY.rules ?? []).flatMap((r) => (r.id && r.action === 'deny' ? [r.id] : [])),
);

/** A rule that came with the product (its id is one of the default policy's). */
export const isBuiltinRule = (rule: Rule): boolean => rule.id !== undefined && BUILTIN_IDS.has(rule.id);

/** A built-in rule that denies: one of the safety rails (private network, rm -rf /, sudo, curl | sh). */
export const isSafetyDeny = (rule: Rule): boolean =>
  rule.action === 'deny' && rule.id !== undefined && BUILTIN_DENY_IDS.has(rule.id);

const keyOf = (rule: Rule) => (rule.id !== undefined ? `id:${rule.id}` : `rule:${canonicalJson(rule)}`);

/** Groups rules by key, keeping order; duplicates of a key are matched pairwise. */
function byKey(rules: readonly Rule[]): Map<string, Rule[]> {
  const map = new Map<string, Rule[]>();
  for (const rule of rules) {
    const key = keyOf(rule);
    const list = map.get(key);
    if (list) list.push(rule);
    else map.set(key, [rule]);
  }
  return map;
}

export function diffPolicies(before: Policy, after: Policy): PolicyDiff {
  const diff: PolicyDiff = { added: [], removed: [], changed: [], unchanged: 0, safetyDeniesLost: [] };
  const old = byKey(before.rules);
  for (const rule of after.rules) {
    const match = old.get(keyOf(rule))?.shift();
    if (!match) diff.added.push(rule);
    else if (canonicalJson(match) === canonicalJson(rule)) diff.unchanged++;
    else diff.changed.push({ before: match, after: rule });
  }
  for (const left of old.values()) diff.removed.push(...left);
  // Keep the removed rules in the order the old policy listed them.
  const order = new Map(before.rules.map((r, i) => [r, i] as const));
  diff.removed.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));

  diff.safetyDeniesLost = [
    ...diff.removed.filter(isSafetyDeny),
    ...diff.changed.filter((c) => isSafetyDeny(c.before) && c.after.action !== 'deny').map((c) => c.before),
  ];
  if (before.defaultAction !== after.defaultAction)
    diff.defaultAction = { before: before.defaultAction, after: after.defaultAction };
  const riskBefore = before.riskDefaults ?? {};
  const riskAfter = after.riskDefaults ?? {};
  if (canonicalJson(riskBefore) !== canonicalJson(riskAfter))
    diff.riskDefaults = { before: riskBefore, after: riskAfter };
  return diff;
}

/** True when applying the diff changes nothing. */
export const isEmptyDiff = (d: PolicyDiff): boolean =>
  d.added.length + d.removed.length + d.changed.length === 0 && !d.defaultAction && !d.riskDefaults;
