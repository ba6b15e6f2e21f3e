// The rule index only ever leaves out rules that cannot match: with it, every decision (action,
// reason, deciding rule) is the one a scan of every rule gives, for random policies large enough
// to be indexed and calls that hit, miss and dodge their prefixes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutIndexes } from './candidates';
import { compilePolicy, evaluate, type Action, type RuleInput } from './index';

const ctx = { workspaceRoot: '/ws', homeDir: '/home/u' };
const action = fc.constantFrom<Action>('allow', 'ask', 'deny');

const commandPattern = fc.constantFrom(
  'git *',
  'git push *',
  'git push --force *',
  'git -C * push *',
  'git ** push *',
  'git -C ** status',
  'git * status',
  'git status',
  'ls *',
  'ls',
  'rm -rf *',
  'rm *',
  '/bin/rm *',
  'echo *',
  'curl *',
  'npm test *',
  'npm i *',
  'npm install *',
  'sudo *',
  'cat *',
  'find *',
  '*',
  'xargs *',
  'bash *',
  'docker rm -f *',
  'docker container rm *',
  'docker container *',
  'kubectl delete *',
  'kubectl -n prod delete *',
  'l? *',
  '*rm *',
  'g[io]t push *',
  'timeout *',
);
const pathPattern = fc.constantFrom(
  'src/**',
  'src/*.ts',
  '**/*.ts',
  '/etc/**',
  '~/.ssh/**',
  '.git/**',
  '/**',
  '/ws/**',
  '**',
  'src/a.ts',
  '/ws/src/\\[id\\].ts',
  'src/{a,b}/**',
  '/etc/passwd',
  '*.json',
);
const bashRule = fc.oneof(
  fc.record({ tool: fc.constant('bash'), params: fc.record({ command: commandPattern }) }),
  fc.record({
    tool: fc.constant('bash'),
    when: fc
      .constantFrom('rm', 'curl,sudo', 'git')
      .map((value) => [{ key: 'command', op: 'command_blacklist', value }]),
  }),
  fc.record({
    tool: fc.constant('bash'),
    when: fc.constantFrom('^git', 'rm').map((value) => [{ key: 'command', op: 'regex', value }]),
  }),
  fc.record({ tool: fc.constant('bash'), when: fc.constant([{ key: 'command', op: 'glob', value: 'git push *' }]) }),
  fc.constant({ tool: 'bash' }),
);
const fileRule = fc.record({
  tool: fc.constantFrom('read_file', 'write_file', '*_file'),
  params: fc.record({ path: pathPattern }),
});
const rule = fc
  .tuple(action, fc.oneof(bashRule, bashRule, fileRule))
  .map(([a, shape]) => ({ action: a, ...shape }) as RuleInput);

const command = fc.constantFrom(
  'git status',
  'git push origin main',
  'git -C x push -f',
  'git $X push',
  'git -C a b status',
  'git -C a status',
  'git "$Y" status',
  'git push --force o m',
  'ls -la',
  'ls',
  'rm -rf /',
  '/bin/rm x',
  './rm x',
  'echo hi',
  'sudo rm -rf x',
  'timeout 5 git push',
  'xargs rm',
  'npm i lodash',
  'npm install',
  'docker container rm -f x',
  'docker rm x',
  'kubectl delete pod x -n prod',
  'kubectl -n prod delete pod',
  'lx y',
  'curl x | sh',
  'find . -exec rm {} \\;',
  'bash -c "git push"',
  '$P x',
  'cat f > out',
  'env git push',
  'command -v git',
  'git',
  'rm',
  '',
);
const shell = fc.array(command, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(' && '));
const call = fc.oneof(
  shell.map((c) => ({ tool: 'bash', params: { command: c } })),
  fc
    .constantFrom(
      'src/a.ts',
      'src/../.git/config',
      '/etc/passwd',
      '~/.ssh/id_rsa',
      '/ws/src/[id].ts',
      'src/b/x.ts',
      '/',
      'x.json',
      'src/a/b/c.ts',
      42,
    )
    .map((path) => ({ tool: 'read_file', params: { path } })),
);

describe('the rule index', () => {
  it('gives every decision a scan of all rules gives', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 6, maxLength: 40 }), action, call, (rules, defaultAction, c) => {
        const policy = compilePolicy({ defaultAction, rules });
        const indexed = evaluate(policy, c, ctx);
        const scanned = withoutIndexes(() => evaluate(policy, c, ctx));
        expect({
          action: indexed.action,
          reason: indexed.reason,
          rule: indexed.rule,
          parts: indexed.parts?.map((p) => [p.action, p.rule?.index]),
        }).toEqual({
          action: scanned.action,
          reason: scanned.reason,
          rule: scanned.rule,
          parts: scanned.parts?.map((p) => [p.action, p.rule?.index]),
        });
      }),
      { numRuns: 600 },
    );
  });
});
