// Policy tests: the runner (each test's call decided by the policy it belongs to, in its mode, as
// its agent) and the schema that carries and bounds them in every importable format.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compilePolicy,
  describeTestResult,
  evaluate,
  importPolicy,
  POLICY_TEST_LIMITS,
  PolicyValidationError,
  runPolicyTests,
  type PolicyInput,
} from './index';

const rules: PolicyInput['rules'] = [
  { action: 'allow', tool: 'bash', params: { command: 'git *' } },
  { action: 'deny', tool: 'bash', params: { command: 'rm -rf *' } },
  { action: 'allow', tool: 'read_file', agent: 'reviewer' },
];

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof PolicyValidationError) return error.issues;
    throw error;
  }
  throw new Error('expected a PolicyValidationError');
}

describe('runPolicyTests', () => {
  it('a test passes when its call gets the expected decision, and fails naming what it got', () => {
    const policy = compilePolicy({ rules });
    const report = runPolicyTests(policy, [
      { name: 'git is fine', call: { tool: 'bash', params: { command: 'git status' } }, expect: 'allow' },
      { call: { tool: 'bash', params: { command: 'rm -fr build' } }, expect: 'allow' },
    ]);
    expect(report).toMatchObject({ passed: 1, failed: 1 });
    expect(report.results[0]).toMatchObject({
      index: 0,
      name: 'git is fine',
      expect: 'allow',
      got: 'allow',
      pass: true,
      reason: 'matched_rule',
      rule: { index: 0 },
    });
    expect(report.results[1]).toMatchObject({
      index: 1,
      expect: 'allow',
      got: 'deny',
      pass: false,
      rule: { index: 1 },
    });
    expect(report.results[1]!.explanation).toMatch(/rule #2/);
    expect(describeTestResult(report.results[1]!)).toBe(
      'test #2: bash {"command":"rm -fr build"}: expected allow, got deny',
    );
  });

  it("runs the policy's own tests by default", () => {
    const policy = compilePolicy({
      rules,
      tests: [{ call: { tool: 'bash', params: { command: 'git log' } }, expect: 'allow' }],
    });
    expect(runPolicyTests(policy)).toMatchObject({ passed: 1, failed: 0 });
    expect(runPolicyTests(compilePolicy({ rules }))).toEqual({ results: [], passed: 0, failed: 0 });
  });

  it("the agent of a test is the call's", () => {
    const report = runPolicyTests({ rules }, [
      { call: { tool: 'read_file', params: { path: 'a.txt' }, agent: 'reviewer' }, expect: 'allow' },
      { call: { tool: 'read_file', params: { path: 'a.txt' } }, expect: 'allow' },
    ]);
    expect(report.results.map((r) => r.got)).toEqual(['allow', 'ask']);
  });

  it('a test runs in its own mode (default: default)', () => {
    const call = { tool: 'bash', params: { command: 'make' } };
    const report = runPolicyTests({ rules }, [
      { call, expect: 'ask' },
      { call, expect: 'deny', mode: 'dontAsk' },
    ]);
    expect(report.results.map((r) => [r.mode, r.got, r.pass])).toEqual([
      ['default', 'ask', true],
      ['dontAsk', 'deny', true],
    ]);
    expect(describeTestResult(report.results[1]!)).toContain('in mode dontAsk: got deny as expected');
  });

  it('uses the context it is given (the workspace that paths resolve against)', () => {
    const policy = compilePolicy({ rules: [{ action: 'deny', tool: 'read_file', params: { path: '/srv/app/.env' } }] });
    const test = { call: { tool: 'read_file', params: { path: '.env' } }, expect: 'deny' as const };
    expect(runPolicyTests(policy, [test], { workspaceRoot: '/srv/app' }).failed).toBe(0);
    expect(runPolicyTests(policy, [test], { workspaceRoot: '/elsewhere' }).failed).toBe(1);
  });

  it('a test list given separately is validated, naming tests.<i>', () => {
    expect(
      issuesOf(() =>
        runPolicyTests({ rules }, [{ call: { tool: 'bash', params: {} }, expect: 'maybe' as 'allow' }]),
      ).map((i) => i.path),
    ).toEqual(['tests.0.expect']);
  });

  it('every test gets the decision evaluate gives its call (property)', () => {
    const policy = compilePolicy({ rules });
    const call = fc.record({
      tool: fc.constantFrom('bash', 'read_file', 'write_file', 'x'),
      params: fc.record({ command: fc.string({ maxLength: 30 }), path: fc.string({ maxLength: 20 }) }),
      agent: fc.option(fc.constantFrom('main', 'reviewer'), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        call,
        fc.constantFrom('default', 'plan', 'dontAsk', 'acceptEdits', 'bypassPermissions' as const),
        (c, mode) => {
          const { agent, ...rest } = c;
          const tested = { ...rest, ...(agent ? { agent } : {}) };
          const [result] = runPolicyTests(policy, [{ call: tested, expect: 'allow', mode }]).results;
          expect(result!.got).toBe(evaluate(policy, tested, { mode }).action);
          expect(result!.pass).toBe(result!.got === 'allow');
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('policy tests in the schema', () => {
  const test = {
    name: 'no force',
    call: { tool: 'bash', params: { command: 'rm -rf /' } },
    expect: 'deny' as const,
    mode: 'plan' as const,
  };

  it('a policy keeps its tests; a policy without tests has none', () => {
    expect(compilePolicy({ rules, tests: [test] }).policy.tests).toEqual([test]);
    expect(compilePolicy({ rules }).policy).not.toHaveProperty('tests');
  });

  it('refuses malformed tests, naming the field', () => {
    const paths = (tests: unknown) => issuesOf(() => compilePolicy({ rules, tests } as PolicyInput)).map((i) => i.path);
    expect(paths([{ call: { tool: '', params: {} }, expect: 'allow' }])).toEqual(['tests.0.call.tool']);
    expect(paths([{ call: { tool: 'bash', params: {} }, expect: 'approve' }])).toEqual(['tests.0.expect']);
    expect(paths([{ call: { tool: 'bash', params: {} }, expect: 'allow', mode: 'yolo' }])).toEqual(['tests.0.mode']);
    expect(paths([{ call: { tool: 'bash', params: {} }, expect: 'allow', extra: 1 }])).toEqual(['tests.0']);
    expect(paths([{ call: { tool: 'bash' }, expect: 'allow' }])).toEqual(['tests.0.call.params']);
    expect(paths('all')).toEqual(['tests']);
  });

  it(`bounds the number of tests (${POLICY_TEST_LIMITS.tests}), the size of each call and of all calls together`, () => {
    const many = Array.from({ length: POLICY_TEST_LIMITS.tests + 1 }, () => test);
    expect(issuesOf(() => compilePolicy({ rules, tests: many }))).toEqual([
      { path: 'tests', message: `a policy may carry at most ${POLICY_TEST_LIMITS.tests} tests` },
    ]);
    expect(compilePolicy({ rules, tests: many.slice(1) }).policy.tests).toHaveLength(POLICY_TEST_LIMITS.tests);
    const big = {
      call: { tool: 'bash', params: { command: 'x'.repeat(POLICY_TEST_LIMITS.callSize) } },
      expect: 'ask' as const,
    };
    expect(issuesOf(() => compilePolicy({ rules, tests: [big] })).map((i) => i.path)).toEqual(['tests.0.call']);
    const nine = { call: { tool: 'bash', params: { command: 'x'.repeat(9_000) } }, expect: 'ask' as const };
    const total = Array.from({ length: Math.ceil(POLICY_TEST_LIMITS.totalCallSize / 9_000) + 1 }, () => nine);
    expect(issuesOf(() => compilePolicy({ rules, tests: total }))).toEqual([
      {
        path: 'tests',
        message: expect.stringMatching(/^the calls of a policy's tests may total at most 100,000 characters/),
      },
    ]);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(
      issuesOf(() => compilePolicy({ rules, tests: [{ call: { tool: 'x', params: { deep } }, expect: 'ask' }] })).map(
        (i) => i.path,
      ),
    ).toEqual(['tests.0.call']);
  });

  it('a huge test list is refused quickly, never run', () => {
    const huge = Array.from({ length: 200_000 }, () => test);
    const started = performance.now();
    expect(issuesOf(() => compilePolicy({ rules, tests: huge }))[0]!.path).toBe('tests');
    // Expected well under 1 s (the list is validated, not run); 10x margin for a loaded machine.
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('policy tests through import and export', () => {
  const tests = [
    { call: { tool: 'bash', params: { command: 'rm -rf x' } }, expect: 'deny' as const },
    {
      name: 'reviewer reads',
      call: { tool: 'read_file', params: { path: 'a' }, agent: 'reviewer' },
      expect: 'allow' as const,
      mode: 'plan' as const,
    },
  ];

  it('the canonical format keeps tests, and an export imports again to the same policy', () => {
    const imported = importPolicy({ rules, tests });
    expect(imported.tests).toEqual(tests);
    expect(importPolicy(JSON.parse(JSON.stringify(imported)))).toEqual(imported);
  });

  it("the seeds' permissions keep tests", () => {
    const imported = importPolicy({ deny: [{ tool: 'bash', params: { command: 'rm *' } }], tests });
    expect(imported.tests).toEqual(tests);
    expect(runPolicyTests(imported, [tests[0]!]).failed).toBe(0);
  });

  it('the snake_case format keeps tests, approve meaning ask', () => {
    const imported = importPolicy({
      default_action: 'approve',
      rules: [{ tool: 'bash', action: 'deny' }],
      tests: [{ call: { tool: 'x', params: {} }, expect: 'approve' }, tests[0]],
    });
    expect(imported.tests).toEqual([{ call: { tool: 'x', params: {} }, expect: 'ask' }, tests[0]]);
    expect(runPolicyTests(imported).failed).toBe(0);
  });

  it('invalid tests in a foreign format are named by their path', () => {
    expect(
      issuesOf(() => importPolicy({ allowlist: [], tests: [{ call: { tool: 'x', params: {} }, expect: 'yes' }] })).map(
        (i) => i.path,
      ),
    ).toEqual(['tests.0.expect']);
    expect(issuesOf(() => importPolicy({ default_action: 'deny', rules: [], tests: 5 })).map((i) => i.path)).toEqual([
      'tests',
    ]);
  });
});
