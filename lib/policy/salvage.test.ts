import { describe, expect, it } from 'vitest';
import { evaluate } from './evaluate';
import { salvagePolicy } from './salvage';

const call = (command: string) => ({ tool: 'bash', params: { command } });

describe('salvagePolicy: a stored policy that no longer validates', () => {
  it('keeps a valid policy as it is', () => {
    const { policy, issues } = salvagePolicy({ rules: [{ action: 'allow', tool: 'bash', params: { command: 'ls' } }] });
    expect(issues).toEqual([]);
    expect(policy.rules).toHaveLength(1);
  });

  it('widens a deny rule whose regex RE2 cannot run to every call of its tool, at the same index', () => {
    const { policy, issues } = salvagePolicy({
      rules: [
        { action: 'allow', tool: 'bash', params: { command: 'echo *' } },
        { action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'regex', value: '(?=secret)' }] },
      ],
    });
    expect(issues[0]!.path).toBe('rules.1.when.0.value');
    expect(policy.rules[1]).toMatchObject({ action: 'deny', tool: 'bash' });
    expect(policy.rules[1]!.when).toBeUndefined();
    expect(evaluate(policy, call('echo hi'))).toMatchObject({ action: 'deny', rule: { index: 1 } });
  });

  it('turns an allow rule that does not validate into one that matches nothing', () => {
    const { policy } = salvagePolicy({
      rules: [{ action: 'allow', tool: 'bash', when: [{ key: 'command', op: 'regex', value: '(\\w)\\1' }] }],
    });
    expect(policy.rules).toHaveLength(1);
    expect(evaluate(policy, call('aa'))).toMatchObject({ action: 'ask' });
  });

  it('keeps the tests that still validate, and drops those that do not', () => {
    const bad = { action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'regex', value: '(?=x)' }] };
    const tests = [{ call: call('ls'), expect: 'deny' }];
    expect(salvagePolicy({ rules: [bad], tests }).policy.tests).toEqual(tests);
    expect(salvagePolicy({ rules: [bad], tests: [{ call: call('ls'), expect: 'never' }] }).policy).not.toHaveProperty(
      'tests',
    );
  });

  it('never throws on garbage, and asks by default', () => {
    for (const doc of [null, 1, 'x', { rules: 'no' }, { defaultAction: 'maybe', rules: [null, { action: 'allow' }] }]) {
      const { policy } = salvagePolicy(doc);
      expect(evaluate(policy, call('ls')).action).not.toBe('allow');
    }
  });
});
