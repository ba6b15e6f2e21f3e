// Property tests of the engine's invariants over random policies, calls and modes: rules only
// ever move decisions the way their action says, a shell command is allowed only if every part
// is, and evaluation never throws, whatever it is given.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluateMetered } from './evaluate';
import {
  compilePolicy,
  evaluate,
  MAX_VALUE_LENGTH,
  parseCommand,
  WORK_BUDGET,
  type Action,
  type Decision,
  type Mode,
  type PolicyInput,
  type RuleInput,
} from './index';

const SEVERITY: Record<Action, number> = { allow: 0, ask: 1, deny: 2 };
const MODES: Mode[] = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'];
const ctxOf = (mode: Mode) => ({ mode, workspaceRoot: '/ws', homeDir: '/home/u' });
const RUNS = { numRuns: 300 };

// ---- random policies -------------------------------------------------------------------

const action = fc.constantFrom<Action>('allow', 'ask', 'deny');
const commandPattern = fc.constantFrom(
  'git *',
  'git push *',
  'ls *',
  'ls',
  'rm -rf *',
  'rm *',
  'echo *',
  'curl *',
  'npm test *',
  'sudo *',
  'cat *',
  'find *',
  '*',
  'xargs *',
  'bash *',
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
);
const urlPattern = fc.constantFrom('https://example.com/**', 'https://*.example.com/**', '*', 'http://127.0.0.1/**');

const bashRule = fc.oneof(
  fc.record({ tool: fc.constant('bash'), params: fc.record({ command: commandPattern }) }),
  fc.record({
    tool: fc.constant('bash'),
    when: fc
      .tuple(fc.constantFrom('command_blacklist', 'command_ask_always'), fc.constantFrom('rm', 'curl,sudo', 'dd,mkfs'))
      .map(([op, value]) => [{ key: 'command', op, value }]),
  }),
  fc.record({
    tool: fc.constant('bash'),
    when: fc.constant([{ key: 'command', op: 'no_command_substitution', value: '' }]),
  }),
);
const fileRule = fc.record({
  tool: fc.constantFrom('read_file', 'write_file', 'edit_file', '*_file'),
  params: fc.record({ path: pathPattern }),
});
const urlRule = fc.oneof(
  fc.record({ tool: fc.constant('fetch_url'), params: fc.record({ url: urlPattern }) }),
  fc.record({
    tool: fc.constant('fetch_url'),
    when: fc.constantFrom('example.com', '127.0.0.1', 'evil.io').map((value) => [{ key: 'url', op: 'host', value }]),
  }),
);
const anyToolRule = fc.record({ tool: fc.constantFrom('*', 'task', 'bash', 'read_file') });

const ruleShape = fc.oneof(bashRule, fileRule, urlRule, anyToolRule);
const ruleWith = (act: fc.Arbitrary<Action>) =>
  fc.tuple(act, ruleShape).map(([a, shape]) => ({ action: a, ...shape }) as RuleInput);
const rule = ruleWith(action);

const policy: fc.Arbitrary<PolicyInput> = fc.record(
  {
    defaultAction: action,
    riskDefaults: fc.record({ read_only: action, write: action, destructive: action }, { requiredKeys: [] }),
    rules: fc.array(rule, { maxLength: 8 }),
  },
  { requiredKeys: ['rules'] },
);

// ---- random calls ----------------------------------------------------------------------

const simpleCommand = fc.constantFrom(
  'git status',
  'git push origin main',
  'ls -la',
  'ls',
  'rm -rf /',
  'rm x',
  'echo hi',
  'echo $(curl x)',
  'sudo rm x',
  'cat f > out',
  'npm test',
  'curl https://example.com',
  'find . -exec rm {} \\;',
  'bash -c "ls"',
  '$X',
  'LD_PRELOAD=x ls',
  'xargs echo',
  '/bin/ls',
  'eval "$Y"',
  'timeout 5 npm test',
  'ls\r',
  'echo "unterminated',
);
const shellCommand = fc
  .tuple(
    simpleCommand,
    fc.array(fc.tuple(fc.constantFrom('; ', ' && ', ' || ', ' | ', '\n'), simpleCommand), { maxLength: 2 }),
  )
  .map(([head, rest]) => head + rest.map(([op, cmd]) => op + cmd).join(''));

const call = fc.oneof(
  shellCommand.map((command) => ({ tool: 'bash', params: { command } })),
  fc
    .tuple(
      fc.constantFrom('read_file', 'write_file', 'edit_file'),
      fc.constantFrom(
        'src/a.ts',
        'src/../.git/config',
        '/etc/passwd',
        '~/.ssh/id_rsa',
        'src//b.ts',
        './src/x/y.ts',
        '../outside',
        '/ws/src/z.ts',
      ),
    )
    .map(([tool, path]) => ({ tool, params: { path } })),
  fc
    .constantFrom(
      'https://example.com/a',
      'https://evilexample.com/',
      'http://EXAMPLE.com./x',
      'https://user@example.com.evil.io/',
      'http://127.1/',
      'http://[::ffff:7f00:1]/',
      'https://a.example.com/b',
    )
    .map((url) => ({ tool: 'fetch_url', params: { url } })),
  fc.constant({ tool: 'task', params: {} }),
);

const mode = fc.constantFrom(...MODES);
const grants = fc.array(ruleWith(fc.constant('allow')), { maxLength: 2 });

function insert<T>(list: readonly T[], at: number, item: T): T[] {
  const i = at % (list.length + 1);
  return [...list.slice(0, i), item, ...list.slice(i)];
}

function decide(p: PolicyInput, c: unknown, m: Mode, g: RuleInput[]): Decision {
  return evaluate(compilePolicy(p), c, { ...ctxOf(m), grants: g });
}

describe('rules move decisions only in their own direction', () => {
  it('adding a deny rule never makes a decision more permissive (allow < ask < deny), in every mode', () => {
    fc.assert(
      fc.property(policy, call, mode, grants, ruleWith(fc.constant('deny')), fc.nat(), (p, c, m, g, deny, at) => {
        const before = decide(p, c, m, g);
        const after = decide({ ...p, rules: insert(p.rules ?? [], at, deny) }, c, m, g);
        expect(SEVERITY[after.action]).toBeGreaterThanOrEqual(SEVERITY[before.action]);
      }),
      RUNS,
    );
  });

  it('adding an allow rule never turns a deny by a rule (or by plan mode) into anything else', () => {
    fc.assert(
      fc.property(policy, call, mode, grants, ruleWith(fc.constant('allow')), fc.nat(), (p, c, m, g, allow, at) => {
        const before = decide(p, c, m, g);
        // A deny from the default, a risk default or dontAsk's ask-to-deny is what allow rules exist to change.
        const byRule =
          before.reason === 'matched_rule' ||
          before.reason === 'unparseable' ||
          (before.reason === 'mode' && m === 'plan');
        fc.pre(before.action === 'deny' && byRule);
        const after = decide({ ...p, rules: insert(p.rules ?? [], at, allow) }, c, m, g);
        expect(after.action).toBe('deny');
      }),
      RUNS,
    );
  });

  it('adding an allow rule never makes a decision stricter', () => {
    fc.assert(
      fc.property(policy, call, mode, grants, ruleWith(fc.constant('allow')), fc.nat(), (p, c, m, g, allow, at) => {
        const before = decide(p, c, m, g);
        const after = decide({ ...p, rules: insert(p.rules ?? [], at, allow) }, c, m, g);
        expect(SEVERITY[after.action]).toBeLessThanOrEqual(SEVERITY[before.action]);
      }),
      RUNS,
    );
  });
});

// ---- random shell text -----------------------------------------------------------------

const FRAGMENTS = [
  'echo',
  'echo hi',
  'ls',
  'rm -rf /',
  'curl x',
  'git status',
  'cd ',
  'cat .env',
  '-i',
  'sed ',
  'evil.io',
  '$F',
  ' ',
  ' ',
  ';',
  '&&',
  '||',
  '|',
  '|&',
  '&',
  '\n',
  '$(',
  ')',
  '`',
  '"',
  "'",
  '\\',
  '\r',
  '\u2028',
  '\u2029',
  '\u0000',
  '\u001b',
  '\t',
  '<(',
  '>(',
  '{',
  '}',
  '(',
  '<<EOF\n',
  "<<'EOF'\n",
  '\nEOF\n',
  '>',
  '>>',
  '2>&1',
  '/dev/null',
  'f',
  '$X',
  '${X:-',
  '$((',
  '))',
  '[[ ',
  ' ]]',
  'bash -c ',
  'sh -c ',
  'eval ',
  'sudo ',
  'xargs ',
  'env ',
  'timeout 5 ',
  '/bin/',
  './',
  '#',
  "$'",
  '\\x72m',
  'find . -exec ',
  ' {} \\;',
  ' +',
  '*',
  '=',
  'X=',
  'PATH=',
  'if ',
  'then ',
  'fi',
  'for x in a; do ',
  'done',
  'case x in x) ',
  ';;',
  'esac',
  'f() ',
  'e',
  'c',
  'h',
  'o',
];
const SHELL_CHARS = [...'echo rm;&|$()`"\'\\{}<>=#*\n\r\t\u2028'];

/** Well-formed echo scripts with the odd hostile fragment spliced in: many are allowed, the rest are near misses. */
const echoCommand = fc.constantFrom(
  'echo hi',
  'echo $X',
  "echo 'a;b'",
  'echo "$(echo x)"',
  'echo `echo y`',
  'echo a\\ b',
  'echo "a|b"',
  'echo $(echo $(echo z))',
  "bash -c 'echo q'",
  'timeout 5 echo t',
  "eval 'echo e'",
  'echo *.ts',
  'echo hi >/dev/null',
  'echo hi 2>&1',
  'echo "$@"',
  "e'c'ho quoted",
);
const echoScript = fc
  .tuple(
    echoCommand,
    fc.array(
      fc.tuple(
        fc.constantFrom('; ', ' && ', ' || ', ' | ', '\n', ' & '),
        fc.oneof({ weight: 5, arbitrary: echoCommand }, { weight: 1, arbitrary: fc.constantFrom(...FRAGMENTS) }),
      ),
      { maxLength: 4 },
    ),
  )
  .map(([head, rest]) => head + rest.map(([op, text]) => op + text).join(''));

const commandText = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(...SHELL_CHARS), maxLength: 40 }),
  fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 24 }).map((parts) => parts.join('')),
  echoScript,
  echoScript,
);

const echoOnly = compilePolicy({
  defaultAction: 'ask',
  rules: [{ action: 'allow', tool: 'bash', params: { command: 'echo *' } }],
});
const realistic = compilePolicy({
  defaultAction: 'ask',
  rules: [
    { action: 'deny', tool: 'bash', params: { command: 'rm -rf *' } },
    { action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'sudo,dd' }] },
    { action: 'ask', tool: 'bash', params: { command: 'curl *' } },
    ...['echo *', 'ls *', 'git *', 'cat *', 'grep *'].map((command) => ({
      action: 'allow' as const,
      tool: 'bash',
      params: { command },
    })),
  ],
});

/** Wildcards over programs of the tables, file and host rules that follow the shell. */
const following = compilePolicy({
  defaultAction: 'ask',
  rules: [
    { action: 'deny', tool: 'read_file', params: { path: '**/.env' } },
    { action: 'ask', tool: 'write_file', params: { path: 'src/**' } },
    { action: 'deny', tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: 'evil.io' }] },
    ...['echo *', 'cat *', 'git *', 'sed *', 'find *', 'cd *', 'curl *', 'rm *'].map((command) => ({
      action: 'allow' as const,
      tool: 'bash',
      params: { command },
    })),
  ],
});

describe('random shell text', () => {
  it('never throws, never reaches the internal-error path, and is allowed only if every part is', () => {
    fc.assert(
      fc.property(commandText, mode, (command, m) => {
        expect(() => parseCommand(command)).not.toThrow();
        for (const p of [realistic, echoOnly, following]) {
          const d = evaluate(p, { tool: 'bash', params: { command } }, ctxOf(m));
          expect(d.explanation).not.toMatch(/could not be evaluated/);
          if (d.action !== 'allow') continue;
          expect((d.parts ?? []).every((part) => part.action === 'allow')).toBe(true);
          // Only a mode allows a command without looking at its parts (bypassPermissions on an empty script).
          if (d.reason !== 'mode') expect(d.parts?.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('with a policy that allows only `echo *`, an allowed command runs nothing but echo', () => {
    fc.assert(
      fc.property(commandText, (command) => {
        const d = evaluate(echoOnly, { tool: 'bash', params: { command } }, ctxOf('default'));
        if (d.action !== 'allow') return;
        expect(d.parts?.length).toBeGreaterThan(0);
        for (const part of d.parts!) expect(part.program).toBe('echo');
      }),
      { numRuns: 500 },
    );
  });
});

// ---- arbitrary input -------------------------------------------------------------------

const weird = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withTypedArray: true,
  withSparseArray: true,
  withObjectString: true,
});
const paramKey = fc.constantFrom('command', 'path', 'url', 'a.b', '__proto__', 'constructor', 'x');
const looseCall = fc.oneof(
  weird,
  fc.record(
    {
      tool: fc.oneof(fc.constantFrom('bash', 'read_file', 'write_file', 'fetch_url', 'task', '', ' '), weird),
      params: fc.oneof(
        weird,
        fc.dictionary(paramKey, weird, { maxKeys: 3 }),
        fc.dictionary(paramKey, fc.string(), { maxKeys: 3 }),
      ),
      agent: weird,
    },
    { requiredKeys: [] },
  ),
);
const looseCtx = fc.oneof(
  weird,
  fc.record(
    {
      mode: fc.oneof(mode, weird),
      grants: fc.oneof(grants, weird, fc.array(weird, { maxLength: 3 })),
      risk: fc.oneof(fc.constantFrom('read_only', 'write', 'destructive'), weird),
      paramKinds: fc.oneof(
        weird,
        fc.dictionary(paramKey, fc.oneof(fc.constantFrom('command', 'path', 'url', 'text'), weird), { maxKeys: 3 }),
      ),
      workspaceRoot: fc.oneof(fc.constantFrom('/ws', 'rel', ''), weird),
      homeDir: fc.oneof(fc.constant('/home/u'), weird),
    },
    { requiredKeys: [] },
  ),
);

describe('evaluate on arbitrary input', () => {
  it('never throws and always returns allow, ask or deny with an explanation', () => {
    const compiled = compilePolicy({
      rules: [
        { action: 'allow', tool: 'bash', params: { command: 'echo *' } },
        { action: 'deny', tool: '*', params: { path: '/etc/**' } },
      ],
    });
    fc.assert(
      fc.property(
        fc.oneof(fc.constant(compiled), policy, weird),
        looseCall,
        fc.option(looseCtx, { nil: undefined }),
        (p, c, ctx) => {
          let d: Decision | undefined;
          expect(() => {
            d = evaluate(p as PolicyInput, c, ctx as never);
          }).not.toThrow();
          expect(['allow', 'ask', 'deny']).toContain(d!.action);
          expect(typeof d!.explanation).toBe('string');
        },
      ),
      { numRuns: 500 },
    );
  });
});

// ---- the bound on one evaluation ---------------------------------------------------------

// Patterns that make backtracking engines take exponential or high-polynomial time, and values
// up to MAX_VALUE_LENGTH made of the characters they fight over.
const starry = fc
  .array(fc.constantFrom('*', '**', '?', 'a', 'b', 'a*', '*a', '?a', '/', '.'), { minLength: 1, maxLength: 40 })
  .map((xs) => xs.join(''));
const regexAtom = fc.constantFrom('a', 'b', '.', '[ab]', '\\w', '(?:a|aa)', '(a|b|ab)', '[^b]');
const regexText: fc.Arbitrary<string> = fc
  .letrec<{ re: string }>((tie) => ({
    re: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      regexAtom,
      fc.tuple(tie('re'), tie('re')).map(([x, y]) => x + y),
      fc.tuple(tie('re'), tie('re')).map(([x, y]) => `(?:${x}|${y})`),
      fc.tuple(tie('re'), fc.constantFrom('+', '*', '?', '{1,9}', '{2,}', '{0,30}')).map(([x, q]) => `(?:${x})${q}`),
    ),
  }))
  .re.map((re) => `${re}$`);
const longValue = fc
  .tuple(
    fc.constantFrom('a', 'ab', 'a/', 'a.', 'ba', '*a'),
    fc.integer({ min: 0, max: MAX_VALUE_LENGTH }),
    fc.constantFrom('', 'b', '!', '/b'),
  )
  .map(
    ([unit, length, tail]) =>
      unit.repeat(Math.floor(length / unit.length)).slice(0, MAX_VALUE_LENGTH - tail.length) + tail,
  );

const adversarialRule: fc.Arbitrary<RuleInput> = fc
  .tuple(
    action,
    fc.constantFrom('*', 'x', 'bash', 'read_file', 'fetch_url'),
    fc.dictionary(fc.constantFrom('v', 'w', 'path', 'url', 'command'), starry, { maxKeys: 3 }),
    fc.array(
      fc.tuple(fc.constantFrom('v', 'w', 'command', 'url'), fc.constantFrom('regex', 'glob', 'eq'), regexText, starry),
      { maxLength: 3 },
    ),
  )
  .map(([act, tool, params, conditions]) => ({
    action: act,
    tool,
    params,
    when: conditions.map(([key, op, re, glob]) => ({ key, op, value: op === 'regex' ? re : glob })),
  }));

/** Rules whose patterns compile (a few random ones do not, e.g. a command pattern that is not one simple command). */
function compilable(rules: RuleInput[]): RuleInput[] {
  return rules.filter((r) => {
    try {
      compilePolicy({ rules: [r] });
      return true;
    } catch {
      return false;
    }
  });
}

describe('the bound on one evaluation', () => {
  it('no policy and no input makes one evaluation spend more than WORK_BUDGET steps or 1 s, and a spent budget never allows', () => {
    fc.assert(
      fc.property(
        fc.array(adversarialRule, { maxLength: 40 }),
        fc.constantFrom('x', 'bash', 'read_file', 'fetch_url'),
        longValue,
        longValue,
        fc.integer({ min: 1, max: 20_000 }),
        mode,
        (rules, tool, v, w, parts, m) => {
          const policy = compilePolicy({ rules: compilable(rules) });
          const command = `echo ${v.slice(0, 100)};`
            .repeat(Math.max(1, Math.floor(parts / (v.length > 100 ? 100 : v.length + 1))))
            .slice(0, 99_000);
          const params = {
            v,
            w,
            path: `/ws/${v}`.slice(0, MAX_VALUE_LENGTH),
            url: `https://x.com/${w}`.slice(0, MAX_VALUE_LENGTH),
            command,
          };
          parseCommand(command);
          const start = performance.now();
          const { decision, steps } = evaluateMetered(
            policy,
            { tool, params },
            { ...ctxOf(m), grants: rules.slice(0, 3).map((r) => ({ ...r, action: 'allow' as const })) },
          );
          const ms = performance.now() - start;
          expect(steps).toBeLessThanOrEqual(WORK_BUDGET);
          // The bound: WORK_BUDGET steps, about 20-40 ms of one core; 1 s leaves a margin for a loaded machine.
          expect(ms).toBeLessThan(1000);
          if (decision.explanation.includes('work limit')) expect(decision.action).not.toBe('allow');
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});
