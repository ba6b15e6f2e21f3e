// A salvaged stored policy (decision 0006) is never looser than the stored one: a disabled allow
// rule matches no call whatever params it carries, and an ask rule keeps who must approve.
import { describe, expect, it } from 'vitest';
import { approvalRequirement } from './approvals';
import { compilePolicy } from './compile';
import { evaluate } from './evaluate';
import { salvagePolicy } from './salvage';

const ctx = { workspaceRoot: '/ws' };
/** A condition that validated before regex conditions ran on RE2, and no longer does. */
const lookahead = { key: 'command', op: 'regex', value: '^git (?!push)' };

describe('salvagePolicy never widens', () => {
  it('a disabled allow rule allows no call, not even one that carries its marker param', () => {
    const { policy } = salvagePolicy({ rules: [{ action: 'allow', tool: 'bash', when: [lookahead] }] });
    const compiled = compilePolicy(policy);
    for (const marker of Object.keys(policy.rules[0]!.params ?? {})) {
      const call = { tool: 'bash', params: { command: 'rm -rf /', [marker]: '' } };
      expect(evaluate(compiled, call, ctx).action).toBe('ask');
    }
    expect(evaluate(compiled, { tool: 'bash', params: { command: 'git status' } }, ctx).action).toBe('ask');
  });

  it('an ask rule that named its approvers keeps them (never fewer people, never other roles)', () => {
    const { policy } = salvagePolicy({
      rules: [{ action: 'ask', tool: 'bash', when: [lookahead], approvals: { count: 2, roles: ['admin'] } }],
    });
    const compiled = compilePolicy(policy);
    const decision = evaluate(compiled, { tool: 'bash', params: { command: 'git status' } }, ctx);
    expect(decision.action).toBe('ask');
    expect(approvalRequirement(compiled, decision)).toEqual({ count: 2, roles: ['admin'] });
  });

  it('an ask rule whose approvals no longer validate denies rather than asks anyone', () => {
    const { policy } = salvagePolicy({ rules: [{ action: 'ask', tool: 'bash', approvals: { count: 9 } }] });
    const decision = evaluate(compilePolicy(policy), { tool: 'bash', params: { command: 'ls' } }, ctx);
    expect(decision.action).toBe('deny');
  });
});
