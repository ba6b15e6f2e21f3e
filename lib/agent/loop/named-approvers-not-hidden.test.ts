// The gate and an ask rule's `approvals`: a rule that names approvers is never hidden by another
// ask rule that matched first (a broader rule on the command, tried before the file and host rules
// that follow the shell), whether the stored policy or a run's own permissions hold that rule.
import { describe, expect, it } from 'vitest';
import { approvalRequirement, compilePolicy } from '../../policy';
import { builtinTools } from '../tools';
import type { ToolDefinition } from '../tools/types';
import { gate } from './gate';

const bash = builtinTools.find((t) => t.name === 'bash') as unknown as ToolDefinition;
const vault = {
  action: 'ask',
  tool: 'read_file',
  params: { path: 'vault/**' },
  approvals: { count: 2, roles: ['admin'] },
} as const;

function requirement(rules: unknown[], command: string) {
  const policy = compilePolicy({ rules } as never);
  const result = gate({
    policy,
    tool: bash,
    rawInput: { command },
    agentId: 'main',
    mode: 'default',
    grants: [],
    workspace: '/ws',
  });
  if (result.kind !== 'decided') throw new Error(result.message);
  return approvalRequirement(policy, result.decision, result.call, result.evalContext);
}

describe('gate: the approvers a rule names are always asked for', () => {
  it.each([
    [
      'a broader ask rule on the command, before the file rule',
      [{ action: 'ask', tool: 'bash', params: { command: 'cat *' } }, vault],
    ],
    ["a run's own ask rule for every shell command, after it", [vault, { action: 'ask', tool: 'bash' }]],
  ])('%s', (_name, rules) => {
    expect(requirement(rules, 'cat vault/key.txt')).toEqual({ count: 2, roles: ['admin'] });
  });

  it('a command that touches no such file asks as before', () => {
    expect(requirement([vault, { action: 'ask', tool: 'bash' }], 'cat notes.md')).toBeUndefined();
  });
});
