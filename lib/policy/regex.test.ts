// Regex conditions run on RE2: linear in the value whatever the pattern; syntax RE2 cannot run
// is a validation error naming the rule's field.
import { describe, expect, it } from 'vitest';
import { compilePolicy, evaluate, importPolicy, PolicyValidationError, type PolicyInput } from './index';
import { compileRegex } from './regex';

const deny = (value: string, key = 'path'): PolicyInput => ({
  rules: [{ action: 'deny', tool: 'http', when: [{ key, op: 'regex', value }] }],
});

function issueOf(policy: PolicyInput): { path: string; message: string } {
  try {
    compilePolicy(policy);
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyValidationError);
    return (error as PolicyValidationError).issues[0]!;
  }
  throw new Error('the policy compiled');
}

describe('regex conditions', () => {
  it('(a+)+$ against 100,000 characters takes milliseconds (6 s for 26 before)', () => {
    const policy = compilePolicy(deny('(a+)+$'));
    const start = performance.now();
    expect(evaluate(policy, { tool: 'http', params: { path: `${'a'.repeat(99_999)}!` } }).action).toBe('ask');
    expect(evaluate(policy, { tool: 'http', params: { path: 'a'.repeat(100_000) } }).action).toBe('deny');
    // A linear engine takes a few ms here; backtracking took 6 s at 26 characters, x4 per 2 more.
    expect(performance.now() - start).toBeLessThan(1000);
  });

  it.each([
    ['a lookahead', '^(?=admin)', /lookarounds/],
    ['a negative lookahead', '^(?!safe)', /lookarounds/],
    ['a lookbehind', '(?<=x)y', /lookarounds/],
    ['a backreference', '(a)\\1', /backreferences/],
    ['a named backreference', '(?<n>a)\\k<n>', /backreferences/],
    ['a \\u escape', '\\u0041', /\\x\{263a\}/],
    ['an unclosed group', '(', /not a valid regular expression/],
    ['a program too large', '.{999}.{999}.{999}', /too large/],
  ])('%s is a validation error naming the field', (_name, value, message) => {
    const issue = issueOf({
      rules: [
        { action: 'allow', tool: 'a' },
        { action: 'allow', tool: 'b' },
        { action: 'allow', tool: 'c' },
        { action: 'deny', tool: 'http', when: [{ key: 'path', op: 'regex', value }] },
      ],
    });
    expect(issue.path).toBe('rules.3.when.0.value');
    expect(issue.message).toMatch(message);
    expect(issue.message).toMatch(/RE2|too large/);
  });

  it('importing a policy whose regex RE2 cannot run fails the same way', () => {
    expect(() =>
      importPolicy({
        default_action: 'approve',
        rules: [{ tool: 'x', action: 'deny', when: { param: 'p', op: 'regex', value: '(?!a)' } }],
      }),
    ).toThrow(/rules\.0\.when\.0\.value: lookarounds/);
  });

  it('what JavaScript and RE2 share still matches the same', () => {
    const cases: [string, string, boolean][] = [
      ['^/admin', '/admin/x', true],
      ['^/admin', '/users', false],
      ['curl.*\\|\\s*sh', 'curl x | sh', true],
      ['\\d{3}-\\d{4}', 'call 555-1234', true],
      ['(?i)secret', 'SECRET', true],
      ['^$', '', true],
      ['\\/etc\\/', '/etc/passwd', true],
      ['(?<name>a)b', 'ab', true],
      ['[^/]+\\.ts$', 'src/a.ts', true],
    ];
    for (const [pattern, value, expected] of cases)
      expect(compileRegex(pattern).test(value), `${pattern} on ${value}`).toBe(expected);
  });
});
