// An ask rule's `approvals`: accepted from 1 to 5 people on ask rules only, and the requirement of
// a decision combines the ask rules that decided it (a shell command's parts included): the most
// people any asks, each with a role every one accepts.
import { describe, expect, it } from 'vitest';
import { approvalRequirement } from './approvals';
import { compilePolicy } from './compile';
import { evaluate } from './evaluate';
import { RuleSchema } from './types';

describe('approvals on a rule', () => {
  it.each([
    ['a count below 1', { action: 'ask', tool: 'bash', approvals: { count: 0 } }, 'approvals.count'],
    ['a count above 5', { action: 'ask', tool: 'bash', approvals: { count: 6 } }, 'approvals.count'],
    ['a fractional count', { action: 'ask', tool: 'bash', approvals: { count: 1.5 } }, 'approvals.count'],
    ['no roles listed', { action: 'ask', tool: 'bash', approvals: { count: 2, roles: [] } }, 'approvals.roles'],
    ['on an allow rule', { action: 'allow', tool: 'bash', approvals: { count: 2 } }, 'approvals'],
    ['an unknown key', { action: 'ask', tool: 'bash', approvals: { count: 2, anyone: true } }, 'approvals'],
  ])('refuses %s, naming the field', (_what, rule, path) => {
    const parsed = RuleSchema.safeParse(rule);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(path);
  });

  it('accepts 1 to 5 people with optional roles on an ask rule', () => {
    expect(
      RuleSchema.safeParse({ action: 'ask', tool: 'bash', approvals: { count: 5, roles: ['admin'] } }).success,
    ).toBe(true);
  });
});

describe('approvalRequirement', () => {
  const policy = compilePolicy({
    rules: [
      { action: 'ask', tool: 'bash', params: { command: 'deploy *' }, approvals: { count: 2 } },
      { action: 'ask', tool: 'bash', params: { command: 'pay *' }, approvals: { count: 3, roles: ['admin'] } },
      { action: 'ask', tool: 'bash', params: { command: 'ls' } },
      { action: 'allow', tool: 'bash', params: { command: 'echo *' } },
      { action: 'ask', tool: 'bash', params: { command: 'wire *' }, approvals: { count: 1, roles: ['admin'] } },
      { action: 'ask', tool: 'bash', params: { command: 'ship *' }, approvals: { count: 3, roles: ['approver'] } },
      { action: 'ask', tool: 'bash', params: { command: 'tag *' }, approvals: { count: 1 } },
      { action: 'ask', tool: 'bash', params: { command: 'note *' }, approvals: { count: 1, roles: ['user', 'admin'] } },
    ],
  });
  const need = (command: string) =>
    approvalRequirement(policy, evaluate(policy, { tool: 'bash', params: { command } }));

  it.each([
    ['a call its rule asks two people for', 'deploy prod', { count: 2 }],
    ['the strictest part of a compound command', 'deploy prod && pay 10', { count: 3, roles: ['admin'] }],
    ['one person with a named role (count 1 still names who)', 'wire 10', { count: 1, roles: ['admin'] }],
    ['one person of the default roles', 'tag v1', { count: 1 }],
    [
      'the most people of one part and the roles of another: satisfying it satisfies both',
      'wire 10 && deploy prod',
      { count: 2, roles: ['admin'] },
    ],
    ['parts whose roles have nothing in common: nobody may approve', 'wire 10 && ship it', { count: 3, roles: [] }],
    ['an asking part without approvals adds nothing', 'ls && tag v1', { count: 1 }],
    ['a named role outside the defaults, alone', 'note x', { count: 1, roles: ['user', 'admin'] }],
    [
      'a named role outside the defaults, with a part of the default roles',
      'tag v1 && note x',
      { count: 1, roles: ['admin'] },
    ],
    ['an ask rule without approvals', 'ls', undefined],
    ['an allowed call', 'echo hi', undefined],
  ])('%s', (_what, command, expected) => {
    expect(need(command)).toEqual(expected);
  });
});

describe('approvalRequirement given the call: a rule naming approvers is never hidden by one that matched first', () => {
  const vault = {
    action: 'ask',
    tool: 'read_file',
    params: { path: 'vault/**' },
    approvals: { count: 2, roles: ['admin'] },
  } as const;
  const ctx = { workspaceRoot: '/ws' };
  const need = (rules: unknown[], command: string) => {
    const policy = compilePolicy({ rules } as never);
    const call = { tool: 'bash', params: { command } };
    return approvalRequirement(policy, evaluate(policy, call, ctx), call, ctx);
  };

  it.each([
    [
      'a broader ask rule on the command, before the file rule',
      [{ action: 'ask', tool: 'bash', params: { command: 'cat *' } }, vault],
    ],
    [
      'an ask rule for every shell command, after it (as a run’s own permissions add)',
      [vault, { action: 'ask', tool: 'bash' }],
    ],
  ])('%s', (_what, rules) => {
    expect(need(rules, 'cat vault/key.txt')).toEqual({ count: 2, roles: ['admin'] });
  });

  it('a call that touches no such file asks as its own rule says', () => {
    expect(need([vault, { action: 'ask', tool: 'bash' }], 'cat notes.md')).toBeUndefined();
  });
});
