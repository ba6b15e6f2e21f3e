import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY } from './defaults';
import { canonicalJson, diffPolicies, isBuiltinRule, isEmptyDiff, isSafetyDeny } from './diff';
import { PolicySchema, type Policy, type Rule } from './types';

const policy = (rules: Rule[], extra: Partial<Policy> = {}): Policy => ({ defaultAction: 'ask', rules, ...extra });
const bash = (command: string, action: Rule['action'] = 'allow', id?: string): Rule => ({
  ...(id ? { id } : {}),
  action,
  tool: 'bash',
  params: { command },
});
const defaults = PolicySchema.parse(DEFAULT_POLICY);

describe('import diff: what replacing the policy changes', () => {
  it('the same policy changes nothing', () => {
    const d = diffPolicies(defaults, defaults);
    expect(isEmptyDiff(d)).toBe(true);
    expect(d.unchanged).toBe(defaults.rules.length);
  });

  it('rules are matched by id: same id with other content is changed, not removed and added', () => {
    const d = diffPolicies(policy([bash('ls', 'allow', 'a')]), policy([bash('ls *', 'allow', 'a')]));
    expect(d.changed).toEqual([{ before: bash('ls', 'allow', 'a'), after: bash('ls *', 'allow', 'a') }]);
    expect(d.added).toEqual([]);
    expect(d.removed).toEqual([]);
  });

  it('rules without an id are matched by content: an edit is one removed and one added', () => {
    const d = diffPolicies(policy([bash('ls'), bash('pwd')]), policy([bash('pwd'), bash('ls -la')]));
    expect(d.removed).toEqual([bash('ls')]);
    expect(d.added).toEqual([bash('ls -la')]);
    expect(d.unchanged).toBe(1);
  });

  it('key order inside a rule does not make it changed', () => {
    const a: Rule = { id: 'x', action: 'allow', tool: 'bash', params: { command: 'ls', cwd: '/' } };
    const b = JSON.parse('{"params":{"cwd":"/","command":"ls"},"tool":"bash","action":"allow","id":"x"}') as Rule;
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(isEmptyDiff(diffPolicies(policy([a]), policy([b])))).toBe(true);
  });

  it('duplicate rules are counted one for one', () => {
    const d = diffPolicies(policy([bash('ls'), bash('ls')]), policy([bash('ls')]));
    expect(d.removed).toEqual([bash('ls')]);
    expect(d.unchanged).toBe(1);
  });

  it('replacing the defaults with two rules calls out every built-in safety deny as lost', () => {
    const d = diffPolicies(defaults, policy([bash('ls', 'allow', 'a'), bash('pwd')]));
    const denies = defaults.rules.filter((r) => r.action === 'deny');
    expect(denies.length).toBeGreaterThan(5);
    expect(d.safetyDeniesLost).toEqual(denies);
    expect(d.removed).toHaveLength(defaults.rules.length);
    expect(d.added).toHaveLength(2);
  });

  it('a built-in deny turned into allow under the same id is a lost safety deny; one kept as deny is not', () => {
    const sudo = defaults.rules.find((r) => r.id === 'no-privilege-or-disk-tools')!;
    const weakened = { ...sudo, action: 'allow' as const };
    expect(
      diffPolicies(defaults, policy(defaults.rules.map((r) => (r === sudo ? weakened : r)))).safetyDeniesLost,
    ).toEqual([sudo]);
    const reworded = { ...sudo, description: 'Other words' };
    expect(
      diffPolicies(defaults, policy(defaults.rules.map((r) => (r === sudo ? reworded : r)))).safetyDeniesLost,
    ).toEqual([]);
  });

  it('a user rule that denies is not a safety deny; built-in rules are known by id', () => {
    expect(isSafetyDeny(bash('rm -rf /', 'deny', 'mine'))).toBe(false);
    expect(isSafetyDeny(defaults.rules.find((r) => r.id === 'no-private-network')!)).toBe(true);
    expect(isBuiltinRule(defaults.rules.find((r) => r.id === 'read-workspace')!)).toBe(true);
    expect(isBuiltinRule(bash('ls'))).toBe(false);
  });

  it('the default action and risk defaults are reported when they change', () => {
    const d = diffPolicies(policy([], { riskDefaults: { write: 'ask' } }), policy([], { defaultAction: 'allow' }));
    expect(d.defaultAction).toEqual({ before: 'ask', after: 'allow' });
    expect(d.riskDefaults).toEqual({ before: { write: 'ask' }, after: {} });
    expect(isEmptyDiff(d)).toBe(false);
  });
});
