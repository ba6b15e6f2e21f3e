import { describe, expect, it } from 'vitest';
import { compilePolicy, consumeOnce, evaluate, type EvaluationContext, type PolicyInput, type ToolCall } from './index';

const ws = { workspaceRoot: '/ws', homeDir: '/home/u' } satisfies EvaluationContext;
const bash = (command: string): ToolCall => ({ tool: 'bash', params: { command } });

interface Row {
  name: string;
  policy: PolicyInput;
  call: ToolCall;
  ctx?: EvaluationContext;
  action: 'allow' | 'ask' | 'deny';
  reason?: string;
  ruleIndex?: number;
}

function check(rows: Row[]) {
  it.each(rows)('$name', ({ policy, call, ctx, action, reason, ruleIndex }) => {
    const decision = evaluate(compilePolicy(policy), call, { ...ws, ...ctx });
    expect(decision.action).toBe(action);
    if (reason) expect(decision.reason).toBe(reason);
    if (ruleIndex !== undefined) expect(decision.rule?.index).toBe(ruleIndex);
    expect(decision.explanation.length).toBeGreaterThan(10);
  });
}

describe('1. precedence is deny > ask > allow, independent of rule order', () => {
  const allow = { action: 'allow', tool: 'read_file' } as const;
  const ask = { action: 'ask', tool: 'read_file' } as const;
  const deny = { action: 'deny', tool: 'read_file' } as const;
  const call = { tool: 'read_file', params: { path: 'a.txt' } };
  check([
    { name: 'deny after allow still denies', policy: { rules: [allow, deny] }, call, action: 'deny', ruleIndex: 1 },
    { name: 'deny before allow denies', policy: { rules: [deny, allow] }, call, action: 'deny', ruleIndex: 0 },
    {
      name: 'ask after allow still asks',
      policy: { rules: [allow, ask] },
      call,
      action: 'ask',
      reason: 'matched_rule',
      ruleIndex: 1,
    },
    { name: 'deny beats ask in any order', policy: { rules: [ask, deny, allow] }, call, action: 'deny', ruleIndex: 1 },
    { name: 'allow alone allows', policy: { rules: [allow] }, call, action: 'allow', reason: 'matched_rule' },
    {
      name: 'a grant allows when no rule matches',
      policy: { rules: [] },
      call,
      ctx: { grants: [{ action: 'allow', tool: 'read_file' }] },
      action: 'allow',
      reason: 'session_grant',
    },
    {
      name: 'the risk default applies when no rule or grant matches',
      policy: { riskDefaults: { read_only: 'allow' }, rules: [] },
      call,
      action: 'allow',
      reason: 'risk_default',
    },
    {
      name: 'the risk default of the tool, not another risk',
      policy: { riskDefaults: { write: 'deny' }, rules: [] },
      call,
      action: 'ask',
      reason: 'default_action',
    },
    {
      name: 'an explicit risk in the context wins over the built-in one',
      policy: { riskDefaults: { destructive: 'deny' }, rules: [] },
      call,
      ctx: { risk: 'destructive' },
      action: 'deny',
      reason: 'risk_default',
    },
    {
      name: 'defaultAction applies last',
      policy: { defaultAction: 'deny', rules: [] },
      call,
      action: 'deny',
      reason: 'default_action',
    },
    {
      name: 'defaultAction defaults to ask (fail-closed)',
      policy: { rules: [] },
      call,
      action: 'ask',
      reason: 'default_action',
    },
    {
      name: 'an unknown tool with no rules asks',
      policy: { rules: [] },
      call: { tool: 'mcp__x__y', params: {} },
      action: 'ask',
    },
    {
      name: 'tool globs match tool names',
      policy: { rules: [{ action: 'deny', tool: 'mcp__github__*' }] },
      call: { tool: 'mcp__github__delete_repo', params: {} },
      action: 'deny',
    },
    {
      name: 'tool globs do not match other tools',
      policy: { rules: [{ action: 'deny', tool: 'mcp__github__*' }] },
      call: { tool: 'mcp__gitlab__x', params: {} },
      action: 'ask',
    },
    {
      name: 'agent globs restrict a rule to matching agents',
      policy: { rules: [{ action: 'allow', tool: '*', agent: 'review*' }] },
      call: { tool: 'read_file', params: {}, agent: 'reviewer' },
      action: 'allow',
    },
    {
      name: 'agent globs skip other agents',
      policy: { rules: [{ action: 'allow', tool: '*', agent: 'review*' }] },
      call: { tool: 'read_file', params: {}, agent: 'coder' },
      action: 'ask',
    },
    {
      name: 'calls without an agent come from main',
      policy: { rules: [{ action: 'deny', tool: '*', agent: 'main' }] },
      call: { tool: 'read_file', params: {} },
      action: 'deny',
    },
    {
      name: 'all params of a rule must match',
      policy: { rules: [{ action: 'allow', tool: 'http', params: { method: 'GET', host: 'a.com' } }] },
      call: { tool: 'http', params: { method: 'GET', host: 'b.com' } },
      action: 'ask',
    },
    {
      name: 'a missing param never matches',
      policy: { rules: [{ action: 'allow', tool: 'http', params: { method: 'GET' } }] },
      call: { tool: 'http', params: {} },
      action: 'ask',
    },
    {
      name: 'all conditions must hold',
      policy: {
        rules: [
          {
            action: 'deny',
            tool: 'http',
            when: [
              { key: 'method', op: 'eq', value: 'DELETE' },
              { key: 'path', op: 'regex', value: '^/admin' },
            ],
          },
        ],
      },
      call: { tool: 'http', params: { method: 'DELETE', path: '/users' } },
      action: 'ask',
    },
    {
      name: 'conditions that all hold apply the rule',
      policy: {
        rules: [
          {
            action: 'deny',
            tool: 'http',
            when: [
              { key: 'method', op: 'eq', value: 'DELETE' },
              { key: 'path', op: 'regex', value: '^/admin' },
            ],
          },
        ],
      },
      call: { tool: 'http', params: { method: 'DELETE', path: '/admin/x' } },
      action: 'deny',
    },
  ]);
});

describe('2. grants never override deny or ask rules; allow-once grants are consumed', () => {
  const grant = { action: 'allow', tool: 'bash', params: { command: 'git push *' } } as const;
  check([
    {
      name: 'a grant does not override a deny rule',
      policy: { rules: [{ action: 'deny', tool: 'bash', params: { command: 'git push *' } }] },
      call: bash('git push'),
      ctx: { grants: [grant] },
      action: 'deny',
    },
    {
      name: 'a grant does not override an ask rule',
      policy: { rules: [{ action: 'ask', tool: 'bash', params: { command: 'git *' } }] },
      call: bash('git push'),
      ctx: { grants: [grant] },
      action: 'ask',
      reason: 'matched_rule',
    },
    {
      name: 'a grant allows what it covers',
      policy: { rules: [] },
      call: bash('git push origin main'),
      ctx: { grants: [grant] },
      action: 'allow',
      reason: 'session_grant',
    },
    {
      name: 'a grant does not allow what it does not cover',
      policy: { rules: [] },
      call: bash('git pull'),
      ctx: { grants: [grant] },
      action: 'ask',
    },
    {
      name: 'a deny or ask grant is ignored, grants only allow',
      policy: { defaultAction: 'allow', rules: [] },
      call: bash('git push'),
      ctx: { grants: [{ ...grant, action: 'deny' }] },
      action: 'allow',
      reason: 'default_action',
    },
    {
      name: 'an allow rule decides before a grant',
      policy: { rules: [{ action: 'allow', tool: 'bash', params: { command: 'git push *' } }] },
      call: bash('git push'),
      ctx: { grants: [grant] },
      action: 'allow',
      reason: 'matched_rule',
    },
  ]);

  it('reports the allow-once grant it used, and consumeOnce removes it', () => {
    const grants = [
      { action: 'allow' as const, tool: 'read_file' },
      { action: 'allow' as const, tool: 'bash', params: { command: 'ls *' }, once: true },
    ];
    const decision = evaluate({ rules: [] }, bash('ls -la'), { ...ws, grants });
    expect(decision).toMatchObject({
      action: 'allow',
      reason: 'session_grant',
      grant: { index: 1 },
      consumes: { grants: [1], rules: [] },
    });
    const left = consumeOnce(grants, decision);
    expect(left).toEqual([grants[0]]);
    expect(evaluate({ rules: [] }, bash('ls -la'), { ...ws, grants: left }).action).toBe('ask');
  });

  it('consumes nothing when the decision is not allow', () => {
    const grants = [{ action: 'allow' as const, tool: 'bash', params: { command: 'ls *' }, once: true }];
    const decision = evaluate({ rules: [] }, bash('ls && rm x'), { ...ws, grants });
    expect(decision.action).toBe('ask');
    expect(decision.consumes).toBeUndefined();
    expect(consumeOnce(grants, decision)).toEqual(grants);
  });

  it('reports allow-once policy rules (imported allowOnce) for the caller to consume', () => {
    const decision = evaluate(
      { rules: [{ action: 'allow', tool: 'read_file', once: true }] },
      { tool: 'read_file', params: { path: 'x' } },
      ws,
    );
    expect(decision.consumes).toEqual({ rules: [0], grants: [] });
  });
});

describe('3. param patterns depend on the param kind', () => {
  const readSrc = { rules: [{ action: 'allow', tool: 'read_file', params: { path: 'src/**' } }] } satisfies PolicyInput;
  check([
    {
      name: 'text: * matches any characters, slashes included',
      policy: { rules: [{ action: 'allow', tool: 'search', params: { query: 'foo*' } }] },
      call: { tool: 'search', params: { query: 'foo/bar baz' } },
      action: 'allow',
    },
    {
      name: 'text: the whole value must match',
      policy: { rules: [{ action: 'allow', tool: 'search', params: { query: 'foo' } }] },
      call: { tool: 'search', params: { query: 'foobar' } },
      action: 'ask',
    },
    {
      name: 'text: numbers are matched as text',
      policy: { rules: [{ action: 'allow', tool: 'scale', params: { n: '3' } }] },
      call: { tool: 'scale', params: { n: 3 } },
      action: 'allow',
    },
    {
      name: 'path: relative patterns resolve against the workspace',
      policy: readSrc,
      call: { tool: 'read_file', params: { path: '/ws/src/a.ts' } },
      action: 'allow',
    },
    {
      name: 'path: relative values resolve against the workspace',
      policy: readSrc,
      call: { tool: 'read_file', params: { path: 'src/deep/a.ts' } },
      action: 'allow',
    },
    {
      name: 'path: src/** never matches src/../.git/config',
      policy: readSrc,
      call: { tool: 'read_file', params: { path: 'src/../.git/config' } },
      action: 'ask',
    },
    {
      name: 'path: ./ and // are normalized',
      policy: readSrc,
      call: { tool: 'read_file', params: { path: './src//a.ts' } },
      action: 'allow',
    },
    {
      name: 'path: dotfiles match (dot: true)',
      policy: readSrc,
      call: { tool: 'read_file', params: { path: 'src/.env' } },
      action: 'allow',
    },
    {
      name: 'path: an absolute path outside does not match',
      policy: readSrc,
      call: { tool: 'read_file', params: { path: '/etc/passwd' } },
      action: 'ask',
    },
    {
      name: 'path: ~ expands to the home directory',
      policy: { rules: [{ action: 'deny', tool: 'read_file', params: { path: '~/.ssh/**' } }] },
      call: { tool: 'read_file', params: { path: '/home/u/.ssh/id_rsa' } },
      action: 'deny',
    },
    {
      name: 'path: ~ in the value expands too',
      policy: { rules: [{ action: 'deny', tool: 'read_file', params: { path: '/home/u/.ssh/**' } }] },
      call: { tool: 'read_file', params: { path: '~/.ssh/../.ssh/id_rsa' } },
      action: 'deny',
    },
    {
      name: 'path: traversal out of the workspace does not match a workspace glob',
      policy: { rules: [{ action: 'allow', tool: 'write_file', params: { path: '**' } }] },
      call: { tool: 'write_file', params: { path: '../../etc/passwd' } },
      action: 'ask',
    },
    {
      name: 'path: ** alone means anywhere inside the workspace',
      policy: { rules: [{ action: 'allow', tool: 'write_file', params: { path: '**' } }] },
      call: { tool: 'write_file', params: { path: 'a/b/c' } },
      action: 'allow',
    },
    {
      name: 'path: ctx.paramKinds makes a custom tool param a path',
      policy: { rules: [{ action: 'allow', tool: 'upload', params: { file: 'src/**' } }] },
      call: { tool: 'upload', params: { file: 'src/../secret' } },
      ctx: { paramKinds: { file: 'path' } },
      action: 'ask',
    },
    {
      name: 'url: scheme and host are case-insensitive, default port dropped',
      policy: { rules: [{ action: 'allow', tool: 'fetch_url', params: { url: 'https://docs.example.com/**' } }] },
      call: { tool: 'fetch_url', params: { url: 'HTTPS://Docs.Example.COM:443/a' } },
      action: 'allow',
    },
    {
      name: 'url: dot segments resolve before matching',
      policy: { rules: [{ action: 'allow', tool: 'fetch_url', params: { url: 'https://a.com/public/**' } }] },
      call: { tool: 'fetch_url', params: { url: 'https://a.com/public/../private/x' } },
      action: 'ask',
    },
    {
      name: 'url: * in the host does not cross into the path',
      policy: { rules: [{ action: 'allow', tool: 'fetch_url', params: { url: 'https://*.a.com/**' } }] },
      call: { tool: 'fetch_url', params: { url: 'https://evil.com/.a.com/' } },
      action: 'ask',
    },
    {
      name: 'url: userinfo is ignored',
      policy: { rules: [{ action: 'deny', tool: 'fetch_url', params: { url: 'http://127.0.0.1/**' } }] },
      call: { tool: 'fetch_url', params: { url: 'http://a.com@0x7f.1/' } },
      action: 'deny',
    },
    {
      name: 'url: an unparseable URL is never allowed by a URL pattern',
      policy: { rules: [{ action: 'allow', tool: 'fetch_url', params: { url: '**' } }] },
      call: { tool: 'fetch_url', params: { url: 'not a url' } },
      action: 'ask',
    },
    {
      name: 'url: an unparseable URL is caught by deny patterns',
      policy: { rules: [{ action: 'deny', tool: 'fetch_url', params: { url: 'http://x/**' } }] },
      call: { tool: 'fetch_url', params: { url: 'http://[bad' } },
      action: 'deny',
    },
    {
      name: 'command: a non-string command is never allowed',
      policy: { rules: [{ action: 'allow', tool: 'bash', params: { command: '*' } }] },
      call: { tool: 'bash', params: { command: ['rm', '-rf'] } },
      action: 'ask',
      reason: 'unparseable',
    },
    {
      name: 'non-string path values may match deny rules',
      policy: { rules: [{ action: 'deny', tool: 'read_file', params: { path: '/etc/**' } }] },
      call: { tool: 'read_file', params: { path: { toString: 1 } } },
      action: 'deny',
    },
    {
      name: 'non-string path values never match allow rules',
      policy: { rules: [{ action: 'allow', tool: 'read_file', params: { path: '**' } }] },
      call: { tool: 'read_file', params: { path: 42 } },
      action: 'ask',
    },
  ]);
});

describe('5-6. hosts and the seed condition ops', () => {
  const denyPrivate = {
    rules: [
      {
        action: 'deny',
        tool: 'fetch_url',
        when: [{ key: 'url', op: 'host', value: 'localhost,127.0.0.0/8,10.0.0.0/8,169.254.169.254,::1,fc00::/7' }],
      },
    ],
  } satisfies PolicyInput;
  const allowExample = {
    rules: [{ action: 'allow', tool: 'fetch_url', when: [{ key: 'url', op: 'host', value: 'example.com' }] }],
  } satisfies PolicyInput;
  const fetch = (url: string): ToolCall => ({ tool: 'fetch_url', params: { url } });
  check([
    ...[
      'http://127.0.0.1/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://127.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:7f00:1]/',
      'http://LOCALHOST./',
      'http://user:pw@localhost:8080/',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:3000/',
      'http://10.1.2.3/',
      'http://[fd00::1]/',
    ].map((url): Row => ({
      name: `host: ${url} is a private address`,
      policy: denyPrivate,
      call: fetch(url),
      action: 'deny',
    })),
    {
      name: 'host: a public address is not private',
      policy: denyPrivate,
      call: fetch('http://93.184.216.34/'),
      action: 'ask',
    },
    {
      name: 'host: a bare name matches itself',
      policy: allowExample,
      call: fetch('https://example.com/x'),
      action: 'allow',
    },
    {
      name: 'host: a bare name matches subdomains',
      policy: allowExample,
      call: fetch('https://api.EXAMPLE.com./x'),
      action: 'allow',
    },
    {
      name: 'host: example.com never matches evilexample.com',
      policy: allowExample,
      call: fetch('https://evilexample.com/'),
      action: 'ask',
    },
    {
      name: 'host: example.com never matches example.com.evil.io',
      policy: allowExample,
      call: fetch('https://example.com.evil.io/'),
      action: 'ask',
    },
    {
      name: 'host: userinfo cannot smuggle the host',
      policy: allowExample,
      call: fetch('https://example.com@evil.io/'),
      action: 'ask',
    },
    {
      name: 'command_blacklist matches any part by basename',
      policy: {
        rules: [{ action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'rm, dd' }] }],
      },
      call: bash('ls && /usr/bin/dd if=/dev/zero'),
      action: 'deny',
    },
    {
      name: 'command_blacklist ignores other programs',
      policy: {
        rules: [{ action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'rm' }] }],
      },
      call: bash('rmdir x'),
      action: 'ask',
      reason: 'default_action',
    },
    {
      name: 'a program list in an allow rule allows a part whose program is listed',
      policy: {
        rules: [{ action: 'allow', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'ls' }] }],
      },
      call: bash('ls -la'),
      action: 'allow',
      reason: 'matched_rule',
    },
    {
      name: "a program list in an allow rule reads the part's words, as every allow rule does (the inner command of timeout)",
      policy: {
        rules: [{ action: 'allow', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'ls' }] }],
      },
      call: bash('timeout 5 ls'),
      action: 'allow',
      reason: 'matched_rule',
    },
    {
      name: 'a program list in an allow rule does not see through sudo: sudo must be listed',
      policy: {
        rules: [{ action: 'allow', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'ls' }] }],
      },
      call: bash('sudo ls'),
      action: 'ask',
      reason: 'default_action',
    },
    {
      name: 'a program list in an allow rule listing rm does not allow sudo rm',
      policy: {
        rules: [{ action: 'allow', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'rm' }] }],
      },
      call: bash('sudo rm -rf x'),
      action: 'ask',
      reason: 'default_action',
    },
    {
      name: 'a program list in an allow rule allows only the parts it lists',
      policy: {
        rules: [{ action: 'allow', tool: 'bash', when: [{ key: 'command', op: 'command_blacklist', value: 'ls' }] }],
      },
      call: bash('ls; rm x'),
      action: 'ask',
      reason: 'default_action',
    },
    {
      name: 'a program list on another param in an allow rule holds when every part is listed',
      policy: {
        rules: [
          { action: 'allow', tool: 'runner', when: [{ key: 'script', op: 'command_blacklist', value: 'ls,git' }] },
        ],
      },
      call: { tool: 'runner', params: { script: 'ls -la && git status' } },
      action: 'allow',
      reason: 'matched_rule',
    },
    {
      name: 'a program list on another param in an allow rule: one unlisted part and it does not hold',
      policy: {
        rules: [
          { action: 'allow', tool: 'runner', when: [{ key: 'script', op: 'command_blacklist', value: 'ls,git' }] },
        ],
      },
      call: { tool: 'runner', params: { script: 'ls; rm x' } },
      action: 'ask',
      reason: 'default_action',
    },
    {
      name: 'a program list on another param in an allow rule: a substitution and it does not hold',
      policy: {
        rules: [
          { action: 'allow', tool: 'runner', when: [{ key: 'script', op: 'command_blacklist', value: 'ls,git' }] },
        ],
      },
      call: { tool: 'runner', params: { script: 'ls $(rm x)' } },
      action: 'ask',
      reason: 'default_action',
    },
    {
      name: 'command_ask_always makes a matching part ask despite an allow',
      policy: {
        rules: [
          { action: 'allow', tool: 'bash', params: { command: '*' } },
          { action: 'ask', tool: 'bash', when: [{ key: 'command', op: 'command_ask_always', value: 'git' }] },
        ],
      },
      call: bash('echo hi; git push'),
      action: 'ask',
      reason: 'matched_rule',
    },
    ...['echo $(id)', 'echo `id`', 'diff <(ls) b', 'tee >(wc)', 'echo "$(id)"'].map((command): Row => ({
      name: `no_command_substitution holds for ${command}`,
      policy: {
        rules: [{ action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'no_command_substitution', value: '' }] }],
      },
      call: bash(command),
      action: 'deny',
    })),
    {
      name: 'no_command_substitution does not hold without one',
      policy: {
        defaultAction: 'allow',
        rules: [{ action: 'deny', tool: 'bash', when: [{ key: 'command', op: 'no_command_substitution', value: '' }] }],
      },
      call: bash('echo $((1+2)) $HOME'),
      action: 'allow',
    },
    {
      name: 'glob normalizes paths first',
      policy: {
        rules: [{ action: 'deny', tool: 'read_file', when: [{ key: 'path', op: 'glob', value: '/ws/.git/**' }] }],
      },
      call: { tool: 'read_file', params: { path: 'src/../.git/config' } },
      action: 'deny',
    },
    {
      name: 'eq compares normalized paths',
      policy: { rules: [{ action: 'deny', tool: 'read_file', when: [{ key: 'path', op: 'eq', value: '.env' }] }] },
      call: { tool: 'read_file', params: { path: './x/../.env' } },
      action: 'deny',
    },
  ]);
});

describe('7. modes', () => {
  const write = (path: string): ToolCall => ({ tool: 'write_file', params: { path, content: 'x' } });
  check([
    {
      name: 'acceptEdits allows workspace writes that would ask',
      policy: { rules: [] },
      call: write('src/a.ts'),
      ctx: { mode: 'acceptEdits' },
      action: 'allow',
      reason: 'mode',
    },
    {
      name: 'acceptEdits allows edit_file too',
      policy: { rules: [] },
      call: { tool: 'edit_file', params: { path: 'a', old: 'x', new: 'y' } },
      ctx: { mode: 'acceptEdits' },
      action: 'allow',
      reason: 'mode',
    },
    {
      name: 'acceptEdits does not allow writes outside the workspace',
      policy: { rules: [] },
      call: write('../outside.txt'),
      ctx: { mode: 'acceptEdits' },
      action: 'ask',
    },
    {
      name: 'acceptEdits does not allow bash',
      policy: { rules: [] },
      call: bash('touch a'),
      ctx: { mode: 'acceptEdits' },
      action: 'ask',
    },
    {
      name: 'acceptEdits keeps deny rules',
      policy: { rules: [{ action: 'deny', tool: 'write_file', params: { path: '**/.env' } }] },
      call: write('.env'),
      ctx: { mode: 'acceptEdits' },
      action: 'deny',
    },
    {
      name: 'acceptEdits keeps explicit ask rules',
      policy: { rules: [{ action: 'ask', tool: 'write_file', params: { path: 'package.json' } }] },
      call: write('package.json'),
      ctx: { mode: 'acceptEdits' },
      action: 'ask',
      reason: 'matched_rule',
    },
    {
      name: 'plan denies tools that are not read-only',
      policy: { rules: [{ action: 'allow', tool: 'bash' }] },
      call: bash('ls'),
      ctx: { mode: 'plan' },
      action: 'deny',
      reason: 'mode',
    },
    {
      name: 'plan denies tools of unknown risk',
      policy: { rules: [{ action: 'allow', tool: '*' }] },
      call: { tool: 'mystery', params: {} },
      ctx: { mode: 'plan' },
      action: 'deny',
      reason: 'mode',
    },
    {
      name: 'plan lets read-only tools be evaluated normally',
      policy: { rules: [{ action: 'allow', tool: 'read_file' }] },
      call: { tool: 'read_file', params: { path: 'a' } },
      ctx: { mode: 'plan' },
      action: 'allow',
      reason: 'matched_rule',
    },
    {
      name: 'plan keeps read-only asks as asks',
      policy: { rules: [] },
      call: { tool: 'read_file', params: { path: 'a' } },
      ctx: { mode: 'plan' },
      action: 'ask',
    },
    {
      name: 'dontAsk turns a default ask into deny',
      policy: { rules: [] },
      call: bash('ls'),
      ctx: { mode: 'dontAsk' },
      action: 'deny',
      reason: 'mode',
    },
    {
      name: 'dontAsk turns an explicit ask into deny',
      policy: { rules: [{ action: 'ask', tool: 'bash' }] },
      call: bash('ls'),
      ctx: { mode: 'dontAsk' },
      action: 'deny',
      reason: 'mode',
    },
    {
      name: 'dontAsk keeps allows',
      policy: { rules: [{ action: 'allow', tool: 'bash', params: { command: 'ls *' } }] },
      call: bash('ls'),
      ctx: { mode: 'dontAsk' },
      action: 'allow',
    },
    {
      name: 'bypassPermissions allows default asks',
      policy: { rules: [] },
      call: bash('make build'),
      ctx: { mode: 'bypassPermissions' },
      action: 'allow',
      reason: 'mode',
    },
    {
      name: 'bypassPermissions allows risk-default asks',
      policy: { riskDefaults: { write: 'ask' }, rules: [] },
      call: bash('make build'),
      ctx: { mode: 'bypassPermissions' },
      action: 'allow',
      reason: 'mode',
    },
    {
      name: 'bypassPermissions keeps explicit ask rules',
      policy: { rules: [{ action: 'ask', tool: 'bash', params: { command: 'git push *' } }] },
      call: bash('git push'),
      ctx: { mode: 'bypassPermissions' },
      action: 'ask',
      reason: 'matched_rule',
    },
    {
      name: 'bypassPermissions keeps deny rules',
      policy: { rules: [{ action: 'deny', tool: 'bash', params: { command: 'rm *' } }] },
      call: bash('rm x'),
      ctx: { mode: 'bypassPermissions' },
      action: 'deny',
    },
    {
      name: 'bypassPermissions never allows an opaque command',
      policy: { rules: [] },
      call: bash('$CMD'),
      ctx: { mode: 'bypassPermissions' },
      action: 'ask',
      reason: 'unparseable',
    },
    {
      name: 'bypassPermissions keeps a risk default deny',
      policy: { riskDefaults: { write: 'deny' }, rules: [] },
      call: bash('ls'),
      ctx: { mode: 'bypassPermissions' },
      action: 'deny',
    },
  ]);
});

describe('10. never throws on a call', () => {
  const policy = compilePolicy({ rules: [{ action: 'allow', tool: 'bash', params: { command: 'ls *' } }] });
  const odd: unknown[] = [
    null,
    undefined,
    42,
    'bash',
    [],
    { tool: 1 },
    { tool: '' },
    { tool: 'bash', params: null },
    { tool: 'bash', params: [] },
    { tool: 'bash', params: { command: null } },
    { tool: 'bash', params: { command: 'x'.repeat(200_000) } },
    { tool: 'bash', params: { command: 'ls '.repeat(20_000) } },
    { tool: 'bash', params: { command: '$('.repeat(5000) } },
    { tool: 'bash', params: { command: '\u0000\uffff\ud800' } },
    { tool: 'read_file', params: { path: '\u0000' } },
    { tool: 'fetch_url', params: { url: 'http://[' } },
    { tool: 'bash', agent: 5, params: {} },
  ];
  it.each(odd.map((call, i) => ({ i, call })))('odd call #$i yields a decision', ({ call }) => {
    const decision = evaluate(policy, call as ToolCall, ws);
    expect(['allow', 'ask', 'deny']).toContain(decision.action);
    expect(decision.action).not.toBe('allow');
  });

  it('an invalid policy passed to evaluate asks instead of throwing', () => {
    const decision = evaluate(
      { rules: [{ action: 'sometimes', tool: 'x' }] } as unknown as PolicyInput,
      bash('ls'),
      ws,
    );
    expect(decision).toMatchObject({ action: 'ask', reason: 'default_action' });
    expect(decision.explanation).toContain('rules.0.action');
  });

  it('a cyclic param object yields a decision', () => {
    const params: Record<string, unknown> = {};
    params.self = params;
    expect(
      evaluate(compilePolicy({ rules: [{ action: 'allow', tool: 't', params: { self: '*' } }] }), { tool: 't', params })
        .action,
    ).toBeDefined();
  });
});
