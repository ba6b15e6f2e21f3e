// The engine's limits: over-long values are never allowed by a pattern, an evaluation stops
// matching at its work budget (and asks), over-long names are malformed, and a per-run policy
// stays within the draft limits.
import { describe, expect, it } from 'vitest';
import {
  compilePolicy,
  DEFAULT_POLICY,
  DRAFT_LIMITS,
  evaluate,
  importDraftPolicy,
  MAX_VALUE_LENGTH,
  PolicyValidationError,
  type PolicyInput,
  type RuleInput,
} from './index';
import { WorkBudget } from './limits';

const long = 'x'.repeat(MAX_VALUE_LENGTH + 1);

describe('values over MAX_VALUE_LENGTH', () => {
  const call = (content: string) => ({ tool: 'write_file', params: { path: 'a.txt', content } });
  it.each([
    [
      'a text glob of a deny rule matches an over-long value',
      { action: 'deny', tool: 'write_file', params: { content: '*secret*' } },
      'deny',
    ],
    [
      'a text glob of an allow rule never matches an over-long value',
      { action: 'allow', tool: 'write_file', params: { content: '*' + 'x' } },
      'ask',
    ],
    [
      'a regex of a deny rule matches an over-long value',
      { action: 'deny', tool: 'write_file', when: [{ key: 'content', op: 'regex', value: 'secret' }] },
      'deny',
    ],
    [
      'a regex of an allow rule never matches an over-long value',
      { action: 'allow', tool: 'write_file', when: [{ key: 'content', op: 'regex', value: 'x' }] },
      'ask',
    ],
    [
      'an eq condition of an allow rule never matches an over-long value',
      { action: 'allow', tool: 'write_file', when: [{ key: 'content', op: 'eq', value: long }] },
      'ask',
    ],
  ] as [string, RuleInput, string][])('%s', (_name, rule, action) => {
    expect(evaluate(compilePolicy({ rules: [rule] }), call(long), { workspaceRoot: '/ws' }).action).toBe(action);
  });

  it('a value of exactly MAX_VALUE_LENGTH characters is still matched', () => {
    const policy = compilePolicy({ rules: [{ action: 'allow', tool: 'write_file', params: { content: 'x*' } }] });
    expect(evaluate(policy, call(long.slice(1)), { workspaceRoot: '/ws' }).action).toBe('allow');
  });

  it('a path or URL over the limit is never allowed either', () => {
    const policy = compilePolicy({
      rules: [
        { action: 'allow', tool: 'read_file', params: { path: '/ws/**/*.txt' } },
        { action: 'allow', tool: 'fetch_url', params: { url: 'https://x.com/**' } },
      ],
    });
    expect(evaluate(policy, { tool: 'read_file', params: { path: `/ws/${long}.txt` } }).action).toBe('ask');
    expect(evaluate(policy, { tool: 'fetch_url', params: { url: `https://x.com/${long}` } }).action).toBe('ask');
  });
});

describe('host patterns', () => {
  it('a host condition with an IPv6 block is linear in a long host name (the IPv6 parser was quadratic on digits)', () => {
    const policy = compilePolicy(DEFAULT_POLICY);
    const url = `http://${'1'.repeat(60_000)}.1.1.1.example/`;
    const start = performance.now();
    expect(evaluate(policy, { tool: 'fetch_url', params: { url } }).action).toBe('ask');
    expect(performance.now() - start).toBeLessThan(500);
  });
});

describe('names', () => {
  it('a tool or agent name over 256 characters is a malformed call (denied)', () => {
    const policy = compilePolicy({ rules: [{ action: 'allow', tool: '*' }] });
    expect(evaluate(policy, { tool: 't'.repeat(257), params: {} })).toMatchObject({
      action: 'deny',
      reason: 'unparseable',
    });
    expect(evaluate(policy, { tool: 't', params: {}, agent: 'a'.repeat(257) })).toMatchObject({
      action: 'deny',
      reason: 'unparseable',
    });
    expect(evaluate(policy, { tool: 't'.repeat(256), params: {} }).action).toBe('allow');
  });
});

describe('the work budget', () => {
  it('charges until a charge does not fit, then stays exhausted', () => {
    const work = new WorkBudget(10);
    expect(work.charge(6)).toBe(true);
    expect(work.charge(5)).toBe(false);
    expect(work.exhausted).toBe(true);
    expect(work.charge(1)).toBe(false);
    expect(work.spent).toBe(6);
  });

  it('an evaluation that runs out of work asks, even where an allow rule would match, and never allows', () => {
    // 900 parts (within the shell's 2,000-element limit) x 2,000 allow rules is far beyond the budget.
    // A glob program word keeps the rules out of the program index: every part tests every rule.
    const rules: RuleInput[] = Array.from({ length: 2000 }, (_, i) => ({
      action: 'allow',
      tool: 'bash',
      params: { command: i === 1999 ? 'true' : `nev?r${i} *` },
    }));
    const policy = compilePolicy({ rules });
    const start = performance.now();
    const decision = evaluate(
      policy,
      { tool: 'bash', params: { command: 'true;'.repeat(900) } },
      { mode: 'bypassPermissions' },
    );
    expect(decision).toMatchObject({ action: 'ask', reason: 'unparseable' });
    expect(decision.explanation).toMatch(/work limit/);
    expect(performance.now() - start).toBeLessThan(5000);
  });

  it('a deny rule that matched before the budget ran out still denies', () => {
    const rules: RuleInput[] = [
      { action: 'deny', tool: 'bash', params: { command: 'rm *' } },
      ...Array.from({ length: 2000 }, (_, i): RuleInput => ({
        action: 'allow',
        tool: 'bash',
        params: { command: `nev?r${i} *` },
      })),
    ];
    const decision = evaluate(compilePolicy({ rules }), {
      tool: 'bash',
      params: { command: `rm x; ${'true;'.repeat(900)}` },
    });
    expect(decision.action).toBe('deny');
  });
});

describe('per-run policies (DRAFT_LIMITS)', () => {
  function issues(doc: unknown) {
    try {
      importDraftPolicy(doc);
    } catch (error) {
      expect(error).toBeInstanceOf(PolicyValidationError);
      return (error as PolicyValidationError).issues;
    }
    return [];
  }

  it('a per-run policy within the limits imports as usual', () => {
    const length = DRAFT_LIMITS.totalPatternLength / DRAFT_LIMITS.rules;
    const doc: PolicyInput = {
      rules: Array.from({ length: DRAFT_LIMITS.rules }, () => ({
        action: 'allow',
        tool: 'bash',
        params: { command: 'x'.repeat(length) },
      })),
    };
    expect(importDraftPolicy(doc).rules).toHaveLength(DRAFT_LIMITS.rules);
    expect(
      importDraftPolicy({
        rules: [{ action: 'deny', tool: 'x', params: { p: 'x'.repeat(DRAFT_LIMITS.patternLength) } }],
      }).rules,
    ).toHaveLength(1);
  });

  it('too many rules are refused naming rules (or the root for the seeds’ format)', () => {
    expect(
      issues({ rules: Array.from({ length: DRAFT_LIMITS.rules + 1 }, () => ({ action: 'deny', tool: 'x' })) }),
    ).toEqual([{ path: 'rules', message: expect.stringMatching(/at most 100 rules \(this one has 101\)/) }]);
    expect(
      issues({
        allowlist: Array.from({ length: 50 }, () => ({ tool: 'x' })),
        deny: Array.from({ length: 51 }, () => ({ tool: 'y' })),
      })[0],
    ).toMatchObject({ path: '', message: expect.stringMatching(/at most 100 rules/) });
  });

  it('a pattern over the length limit is refused naming its field', () => {
    expect(issues({ allowlist: [{ tool: 'bash', params: { command: 'x'.repeat(501) } }] })).toEqual([
      { path: 'allowlist.0.params.command', message: expect.stringMatching(/at most 500 characters/) },
    ]);
    expect(
      issues({ rules: [{ action: 'deny', tool: 'x', when: [{ key: 'k', op: 'regex', value: 'a'.repeat(501) }] }] })[0]!
        .path,
    ).toBe('rules.0.when.0.value');
  });

  it('a rule with too many params and conditions is refused naming the rule', () => {
    const params = Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`p${i}`, '*']));
    expect(
      issues({
        rules: [
          { action: 'allow', tool: 'x' },
          { action: 'allow', tool: 'x', params },
        ],
      }),
    ).toEqual([{ path: 'rules.1', message: expect.stringMatching(/at most 8 params and conditions/) }]);
  });

  it('patterns that total more than the limit are refused, a regex counting its expanded size', () => {
    const rules = Array.from({ length: 11 }, () => ({ action: 'deny', tool: 'x', params: { p: 'x'.repeat(500) } }));
    expect(issues({ rules })).toEqual([
      { path: 'rules', message: expect.stringMatching(/total at most 5,000 characters.*these total 5,500/) },
    ]);
    // 11 characters, but RE2 expands it to about 2,000 instructions: three of them are too much.
    const regex = { action: 'deny', tool: 'x', when: [{ key: 'k', op: 'regex', value: '(?:.{999}){2}' }] };
    expect(issues({ rules: [regex, regex, regex] })[0]!.message).toMatch(/total at most 5,000/);
  });

  it('an invalid per-run policy still fails like importPolicy, naming the field', () => {
    expect(
      issues({ rules: [{ action: 'deny', tool: 'x', when: [{ key: 'k', op: 'regex', value: '(?=a)' }] }] })[0],
    ).toMatchObject({ path: 'rules.0.when.0.value', message: expect.stringMatching(/lookarounds/) });
  });
});
