// The rule index's edge cases, each a row: a policy large enough to be indexed, a call whose
// program, subcommand or path sits where an index could wrongly skip the deciding rule.
import { describe, expect, it } from 'vitest';
import { withoutIndexes } from './candidates';
import { compilePolicy, evaluate, type Action, type RuleInput } from './index';
import { INDEX_FROM } from './rule-index';

const ctx = { workspaceRoot: '/ws', homeDir: '/home/u' };
/** Rules that never match anything here, so the lists are long enough to be indexed. */
const padding = (tool: string, param: string, value: (i: number) => string): RuleInput[] =>
  (['deny', 'ask', 'allow'] as const).flatMap((action) =>
    Array.from({ length: INDEX_FROM }, (_, i) => ({ action, tool, params: { [param]: value(i) } })),
  );

interface Row {
  name: string;
  rule: RuleInput;
  tool?: string;
  value: string;
  expected: Action;
}

const bashRows: Row[] = [
  {
    name: 'a `**` before the subcommand may stand for several words',
    rule: { action: 'deny', tool: 'bash', params: { command: 'git -C ** status' } },
    value: 'git -C a b status',
    expected: 'deny',
  },
  {
    name: 'a subcommand after a run-time word may be any subcommand',
    rule: { action: 'deny', tool: 'bash', params: { command: 'git push *' } },
    value: 'git "$X" status',
    expected: 'deny',
  },
  {
    name: 'a program given by path is looked up by its basename too',
    rule: { action: 'deny', tool: 'bash', params: { command: 'rm *' } },
    value: '/bin/rm x',
    expected: 'deny',
  },
  {
    name: 'a pattern program given by path is looked up as written',
    rule: { action: 'deny', tool: 'bash', params: { command: '/bin/rm *' } },
    value: '/bin/rm x',
    expected: 'deny',
  },
  {
    name: 'a wrapper view is looked up too',
    rule: { action: 'deny', tool: 'bash', params: { command: 'timeout *' } },
    value: 'timeout 5 ls',
    expected: 'deny',
  },
  {
    name: 'the inner command of a wrapper is looked up',
    rule: { action: 'deny', tool: 'bash', params: { command: 'ls *' } },
    value: 'nice ls',
    expected: 'deny',
  },
  {
    name: 'a program glob is never indexed',
    rule: { action: 'deny', tool: 'bash', params: { command: 'l? *' } },
    value: 'lx y',
    expected: 'deny',
  },
  {
    name: 'a blacklist condition is looked up by each program it lists',
    rule: { action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'zz,rm' }] },
    value: 'rm x',
    expected: 'deny',
  },
  {
    name: "an allow rule's program list is looked up by the program of the part's words",
    rule: { action: 'allow', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'zz,ls' }] },
    value: 'timeout 5 ls',
    expected: 'allow',
  },
  {
    name: "control: an allow rule's program list does not see through sudo",
    rule: { action: 'allow', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'rm' }] },
    value: 'sudo rm -rf x',
    expected: 'ask',
  },
  {
    name: 'a regex condition is never indexed',
    rule: { action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'regex', value: 'secret' }] },
    value: 'echo secret',
    expected: 'deny',
  },
  {
    name: 'a subcommand alias is looked up by its canonical name',
    rule: { action: 'deny', tool: 'bash', params: { command: 'npm install *' } },
    value: 'npm i lodash',
    expected: 'deny',
  },
  {
    name: 'a subcommand inside a group is looked up by its canonical name',
    rule: { action: 'deny', tool: 'bash', params: { command: 'docker rm *' } },
    value: 'docker container rm x',
    expected: 'deny',
  },
  {
    name: 'a rule for the whole tool is always a candidate',
    rule: { action: 'deny', tool: 'bash' },
    value: 'anything',
    expected: 'deny',
  },
  {
    name: 'an allow rule is looked up by the exact program',
    rule: { action: 'allow', tool: 'bash', params: { command: 'git status' } },
    value: 'git status',
    expected: 'allow',
  },
  {
    name: 'an allow rule after an option value is looked up by its subcommand',
    rule: { action: 'allow', tool: 'bash', params: { command: 'git -C * status' } },
    value: 'git -C sub status',
    expected: 'allow',
  },
  {
    name: 'control: an allow rule for another subcommand stays out',
    rule: { action: 'allow', tool: 'bash', params: { command: 'git log *' } },
    value: 'git status',
    expected: 'ask',
  },
];

const pathRows: Row[] = [
  {
    name: 'a path rule is looked up by its literal directory',
    rule: { action: 'deny', tool: 'read_file', params: { path: 'src/**' } },
    tool: 'read_file',
    value: 'src/a/b.ts',
    expected: 'deny',
  },
  {
    name: 'a path rule matches its own directory',
    rule: { action: 'deny', tool: 'read_file', params: { path: 'src/**' } },
    tool: 'read_file',
    value: 'src',
    expected: 'deny',
  },
  {
    name: 'a path is normalized before the lookup',
    rule: { action: 'deny', tool: 'read_file', params: { path: '.git/**' } },
    tool: 'read_file',
    value: 'src/../.git/config',
    expected: 'deny',
  },
  {
    name: 'a literal path with escaped glob characters',
    rule: { action: 'deny', tool: 'read_file', params: { path: '/ws/src/\\[id\\].ts' } },
    tool: 'read_file',
    value: 'src/[id].ts',
    expected: 'deny',
  },
  {
    name: 'a rule for anywhere is looked up at the root',
    rule: { action: 'deny', tool: 'read_file', params: { path: '/**' } },
    tool: 'read_file',
    value: '/x',
    expected: 'deny',
  },
  {
    name: 'a home pattern',
    rule: { action: 'deny', tool: 'read_file', params: { path: '~/.ssh/**' } },
    tool: 'read_file',
    value: '~/.ssh/id_rsa',
    expected: 'deny',
  },
  {
    name: 'a path that is not a string may match every deny rule',
    rule: { action: 'deny', tool: 'read_file', params: { path: '/etc/**' } },
    tool: 'read_file',
    value: 42 as unknown as string,
    expected: 'deny',
  },
  {
    name: 'control: a path rule for another directory stays out',
    rule: { action: 'deny', tool: 'read_file', params: { path: 'lib/**' } },
    tool: 'read_file',
    value: 'src/a.ts',
    expected: 'ask',
  },
];

describe('the rule index never skips a rule that matches', () => {
  it.each([...bashRows, ...pathRows])('$name', ({ rule, tool = 'bash', value, expected }) => {
    const param = tool === 'bash' ? 'command' : 'path';
    const pad = padding(tool, param, (i) => (tool === 'bash' ? `never${i} *` : `/nowhere${i}/**`));
    const policy = compilePolicy({ defaultAction: 'ask', rules: [...pad, rule] });
    const call = { tool, params: { [param]: value } };
    const indexed = evaluate(policy, call, ctx);
    expect(indexed.action, indexed.explanation).toBe(expected);
    expect(indexed.action).toBe(withoutIndexes(() => evaluate(policy, call, ctx)).action);
  });
});
