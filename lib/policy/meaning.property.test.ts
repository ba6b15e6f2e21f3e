// Properties of issue 19's rules over random policies, calls and modes: a dangerous option never
// makes a decision more permissive (unless a rule spells it out), and a file deny rule never
// makes a shell command more permissive.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compilePolicy, evaluate, type Action, type Mode, type RuleInput } from './index';

const SEVERITY: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };
const MODES: Mode[] = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'];
const action = fc.constantFrom<Action>('allow', 'ask', 'deny');
const mode = fc.constantFrom(...MODES);
const ctxOf = (m: Mode, grants: RuleInput[] = []) => ({ mode: m, grants, workspaceRoot: '/ws', homeDir: '/home/u' });

/** A command, and the same command with a dangerous option added. */
const WITH_DANGER: [string, string][] = [
  ['sed s/a/b/ f', 'sed -i s/a/b/ f'],
  ['sed -n 1p f', "sed -n '1e id' f"],
  ['find . -name x', 'find . -name x -delete'],
  ['git status', 'git -c core.pager=id status'],
  ['git status', 'git -C /tmp status'],
  ['git log -n 1', 'git log -n 1 --output=/tmp/x'],
  ['curl https://x.io', 'curl -o out https://x.io'],
  ['sort f', 'sort -o out f'],
  ['perl x.pl', 'perl -e 1 x.pl'],
  ['python x.py', 'python -c 1 x.py'],
  ['tar -xf a.tar', 'tar -xf a.tar --to-command=sh'],
  ['rsync -a a b', 'rsync -a --delete a b'],
  ['ssh host', 'ssh -o ProxyCommand=id host'],
  ['npm ls', 'npm --script-shell=/x ls'],
  ["awk '{ print }' f", "awk '{ print > \"o\" }' f"],
];
const PATTERNS = [
  'sed *', 'sed s/a/b/ *', 'sed -n *', 'find *', 'find . -name *', 'git *', 'git status *', 'git status', 'git log *', 'curl *', 'sort *', 'sort f', 'perl *',
  'python *', 'tar *', 'tar -xf *', 'rsync *', 'rsync -a *', 'ssh *', 'npm *', 'npm ls *', 'awk *', '*', 'sed s/a/b/ f', 'timeout *',
];
const rule = fc.tuple(action, fc.constantFrom(...PATTERNS)).map(([a, command]): RuleInput => ({ action: a, tool: 'bash', params: { command } }));
const grant = fc.constantFrom(...PATTERNS).map((command): RuleInput => ({ action: 'allow', tool: 'bash', params: { command } }));
const wrap = fc.constantFrom('', 'timeout 5 ', 'ls && ', 'echo x | ');

describe('dangerous options', () => {
  it('a dangerous option never makes a decision more permissive, with rules that do not spell it out', () => {
    fc.assert(
      fc.property(fc.array(rule, { maxLength: 8 }), action, fc.constantFrom(...WITH_DANGER), wrap, mode, fc.array(grant, { maxLength: 2 }), (rules, defaultAction, [plain, dangerous], prefix, m, grants) => {
        const policy = compilePolicy({ defaultAction, rules });
        const before = evaluate(policy, { tool: 'bash', params: { command: prefix + plain } }, ctxOf(m, grants));
        const after = evaluate(policy, { tool: 'bash', params: { command: prefix + dangerous } }, ctxOf(m, grants));
        expect(SEVERITY[after.action], `${after.explanation} / before: ${before.explanation}`).toBeGreaterThanOrEqual(SEVERITY[before.action]);
      }),
      { numRuns: 500 },
    );
  });
});
