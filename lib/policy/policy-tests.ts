// Policy tests: examples a policy carries ("this call must be denied"), run against the policy
// itself, as Codex's rules carry match/not_match examples. Pure and total like evaluate: each test
// is one evaluation (bounded by WORK_BUDGET) and a policy carries at most POLICY_TEST_LIMITS.tests.
import { z } from 'zod';
import { compilePolicy, isCompiledPolicy, type CompiledPolicy } from './compile';
import { PolicyValidationError } from './errors';
import { evaluate } from './evaluate';
import { POLICY_TEST_LIMITS } from './limits';
import {
  PolicyTestSchema,
  type EvaluationContext,
  type Policy,
  type PolicyInput,
  type PolicyTest,
  type PolicyTestInput,
  type PolicyTestReport,
  type PolicyTestResult,
} from './types';

const TestsSchema = z
  .array(PolicyTestSchema)
  .max(POLICY_TEST_LIMITS.tests, `a policy may carry at most ${POLICY_TEST_LIMITS.tests} tests`);

/**
 * Runs `tests` (default: the policy's own) against the policy, each in its own mode (default
 * `default`) with the rest of `ctx`. Throws PolicyValidationError only for an invalid policy or
 * test list given uncompiled; running never throws.
 */
export function runPolicyTests(
  policy: CompiledPolicy | Policy | PolicyInput,
  tests?: readonly PolicyTestInput[],
  ctx: Omit<EvaluationContext, 'mode'> = {},
): PolicyTestReport {
  const compiled = isCompiledPolicy(policy) ? policy : compilePolicy(policy);
  const list = tests === undefined ? (compiled.policy.tests ?? []) : parseTests(tests);
  const results = list.map((test, index) => runOne(compiled, test, index, ctx));
  const passed = results.filter((r) => r.pass).length;
  return { results, passed, failed: results.length - passed };
}

function parseTests(tests: readonly PolicyTestInput[]): PolicyTest[] {
  const parsed = TestsSchema.safeParse(tests);
  if (!parsed.success) throw PolicyValidationError.fromZod(parsed.error, ['tests'], 'policy tests');
  return parsed.data;
}

function runOne(
  compiled: CompiledPolicy,
  test: PolicyTest,
  index: number,
  ctx: Omit<EvaluationContext, 'mode'>,
): PolicyTestResult {
  const mode = test.mode ?? 'default';
  const decision = evaluate(compiled, test.call, { ...ctx, mode });
  return {
    index,
    ...(test.name ? { name: test.name } : {}),
    call: test.call,
    mode,
    expect: test.expect,
    got: decision.action,
    pass: decision.action === test.expect,
    reason: decision.reason,
    ...(decision.rule ? { rule: decision.rule } : {}),
    explanation: decision.explanation,
  };
}

/** How a test is named in messages: `test #2 "no force push"` (1-based, like rules). */
export function testLabel(result: Pick<PolicyTestResult, 'index' | 'name'>): string {
  return `test #${result.index + 1}${result.name ? ` ${JSON.stringify(result.name)}` : ''}`;
}

/** One line for a result: which test, which call, what it expected and what it got. */
export function describeTestResult(result: PolicyTestResult): string {
  const params = JSON.stringify(result.call.params);
  const call = `${result.call.tool}${result.call.agent ? ` (agent ${result.call.agent})` : ''} ${params.length > 200 ? `${params.slice(0, 200)}…` : params}`;
  const mode = result.mode === 'default' ? '' : ` in mode ${result.mode}`;
  const outcome = result.pass ? `got ${result.got} as expected` : `expected ${result.expect}, got ${result.got}`;
  return `${testLabel(result)}: ${call}${mode}: ${outcome}`;
}
