import { describe, expect, it } from 'vitest';
import {
  checkGrantRules,
  compilePolicy,
  derivePermission,
  evaluate,
  exactCallRules,
  grantCoverage,
  grantFitsCall,
  type Rule,
  type ToolCall,
} from './index';

const ws = { workspaceRoot: '/ws', homeDir: '/home/u' };
const bash = (command: string, agent?: string): ToolCall => ({
  tool: 'bash',
  params: { command },
  ...(agent ? { agent } : {}),
});
const allowBash = (command: string): Rule => ({ action: 'allow', tool: 'bash', params: { command } });
const asUser = (call: ToolCall) => ({ call, suggested: derivePermission(call, ws), mayEdit: false });
const asAdmin = (call: ToolCall) => ({ call, suggested: derivePermission(call, ws), mayEdit: true });

describe('Always Allow: a grant must cover the call it is made for', () => {
  it.each([
    ['the suggested rule', allowBash('echo *'), bash('echo hello'), 'all'],
    ['the exact command', allowBash('echo hello'), bash('echo hello'), 'all'],
    ['a rule for another command', allowBash('ls *'), bash('echo hello'), 'none'],
    ['a rule for one part of two', allowBash('echo *'), bash('echo a && ls'), 'part'],
    ['a rule for a part that writes a file', allowBash('echo *'), bash('echo a > f'), 'none'],
    ['a rule for the outer command of a substitution', allowBash('echo *'), bash('echo $(id)'), 'part'],
    ['a rule for a command only known at run time', allowBash('echo *'), bash('$CMD hello'), 'none'],
    ['a rule for another tool', { action: 'allow', tool: 'read_file' } as Rule, bash('echo hello'), 'none'],
    ['a rule for another agent', { ...allowBash('echo *'), agent: 'reviewer' } as Rule, bash('echo hello'), 'none'],
    [
      'a file rule for the path',
      { action: 'allow', tool: 'read_file', params: { path: '/ws/a.txt' } } as Rule,
      { tool: 'read_file', params: { path: 'a.txt' } },
      'all',
    ],
  ] as const)('%s: %s', (_name, rule, call, expected) => {
    expect(grantCoverage(rule, call, ws)).toBe(expected);
  });

  it('grantFitsCall refuses tool globs, other tools, non-allow rules and rules that cover nothing', () => {
    const call = bash('echo hello');
    expect(grantFitsCall(allowBash('echo *'), call, ws)).toBe(true);
    expect(grantFitsCall({ action: 'allow', tool: '*' }, call, ws)).toBe(false);
    expect(grantFitsCall({ action: 'allow', tool: 'bas?' }, call, ws)).toBe(false);
    expect(grantFitsCall({ action: 'allow', tool: 'read_file' }, call, ws)).toBe(false);
    expect(grantFitsCall({ action: 'deny', tool: 'bash' }, call, ws)).toBe(false);
    expect(grantFitsCall(allowBash('ls *'), call, ws)).toBe(false);
  });
});

describe('Always Allow: the exact call', () => {
  it.each([
    [bash('echo hello'), [{ command: 'echo hello' }]],
    [bash("echo 'a b' && ls"), [{ command: "echo 'a b'" }, { command: 'ls' }]],
    [bash('echo *.txt'), [{ command: "echo '*.txt'" }]],
    [{ tool: 'read_file', params: { path: 'src/a*.ts' } }, [{ path: '/ws/src/a\\*.ts' }]],
    [{ tool: 'fetch_url', params: { url: 'https://Example.com:443/a?b=1' } }, [{ url: 'https://example.com/a?b=1' }]],
    [{ tool: 'custom', params: { n: 3, text: 'a*b' } }, [{ n: '3', text: 'a\\*b' }]],
  ] as const)('%j pins %j', (call, params) => {
    const rules = exactCallRules(call as ToolCall, ws);
    expect(rules.map((r) => r.params)).toEqual(params);
    for (const rule of rules) expect(grantCoverage(rule, call as ToolCall, ws)).not.toBe('none');
  });

  it('a call from a subagent pins the agent', () => {
    expect(exactCallRules(bash('ls', 'reviewer'), ws)).toEqual([
      expect.objectContaining({ agent: 'reviewer', params: { command: 'ls' } }),
    ]);
  });

  it('a URL with a star cannot be pinned (URL patterns have no escape)', () => {
    expect(exactCallRules({ tool: 'fetch_url', params: { url: 'https://a.test/x*y' } }, ws)).toEqual([]);
  });
});

describe('Always Allow: what a decider may supply', () => {
  const call = bash('echo hello');

  it('a user may supply the suggested rule unchanged, or the exact call; the engine’s copy is stored', () => {
    const suggested = derivePermission(call, ws);
    expect(checkGrantRules([{ ...suggested[0]!, description: 'mine', id: 'x' }], asUser(call), ws)).toEqual({
      ok: true,
      rules: [suggested[0]],
    });
    expect(checkGrantRules([allowBash('echo hello')], asUser(call), ws)).toEqual({
      ok: true,
      rules: [exactCallRules(call, ws)[0]],
    });
  });

  it.each([
    ['a tool glob', { action: 'allow', tool: '*' }, 'tool', /tool glob/],
    ['another tool', { action: 'allow', tool: 'read_file' }, 'tool', /must be "bash"/],
    ['a deny rule', { action: 'deny', tool: 'bash', params: { command: 'echo *' } }, 'action', /allow rule/],
    ['an edited suggestion', allowBash('echo h*'), '', /suggested.*only an admin/],
    ['a wider suggestion', allowBash('*'), '', /suggested/],
    ['the suggestion without its params', { action: 'allow', tool: 'bash' }, '', /suggested/],
    ['the suggestion made once-only', { ...allowBash('echo *'), once: true }, '', /suggested/],
    ['a malformed rule', { action: 'allow', tool: '' }, 'tool', /empty/],
  ])('a user is refused %s', (_name, rule, path, message) => {
    const result = checkGrantRules([rule], asUser(call), ws);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues).toEqual([{ index: 0, path, message: expect.stringMatching(message) }]);
  });

  it('a suggestion that does not cover the call is refused, even unchanged', () => {
    const result = checkGrantRules([allowBash('ls *')], { call, suggested: [allowBash('ls *')], mayEdit: false }, ws);
    expect(!result.ok && result.issues).toEqual([
      { index: 0, path: 'params', message: expect.stringMatching(/does not cover/) },
    ]);
  });

  it('an admin may edit freely: an allow rule for the tool that covers the call', () => {
    expect(checkGrantRules([allowBash('echo h*')], asAdmin(call), ws)).toEqual({
      ok: true,
      rules: [allowBash('echo h*')],
    });
    expect(checkGrantRules([allowBash('*')], asAdmin(call), ws)).toEqual({ ok: true, rules: [allowBash('*')] });
  });

  it.each([
    ['a tool glob', { action: 'allow', tool: '*' }, 'tool'],
    ['another tool', { action: 'allow', tool: 'fetch_url' }, 'tool'],
    ['a deny rule', { action: 'deny', tool: 'bash' }, 'action'],
    ['a rule that does not cover the call', allowBash('ls *'), 'params'],
  ])('an admin is still refused %s', (_name, rule, path) => {
    const result = checkGrantRules([rule], asAdmin(call), ws);
    expect(!result.ok && result.issues.map((i) => i.path)).toEqual([path]);
  });

  it('every supplied rule is judged: one bad rule among good ones is named by its index', () => {
    const two = bash('echo a && ls');
    const result = checkGrantRules([allowBash('echo *'), { action: 'allow', tool: '*' }], asUser(two), ws);
    expect(!result.ok && result.issues).toEqual([{ index: 1, path: 'tool', message: expect.any(String) }]);
    expect(checkGrantRules(derivePermission(two, ws), asUser(two), ws).ok).toBe(true);
  });
});

describe('an agent named with glob characters', () => {
  it('gets grants for that agent alone: its name is escaped in derived and exact rules', () => {
    const call = { tool: 'bash', params: { command: 'make deploy' }, agent: '*' };
    const derived = derivePermission(call, {});
    expect(derived.length).toBeGreaterThan(0);
    for (const rules of [derived, exactCallRules(call)]) {
      expect(rules.every((rule) => rule.agent === '\\*')).toBe(true);
      const policy = compilePolicy({ defaultAction: 'ask', rules: [] });
      expect(evaluate(policy, call, { grants: rules }).action).toBe('allow');
      for (const agent of ['main', 'claude-code', 'anyone'])
        expect(evaluate(policy, { ...call, agent }, { grants: rules }).action).toBe('ask');
    }
  });
});
