// Pure helpers of the Tests panel: a test from the add form's values (validated with the engine's
// own PolicyTestSchema, the server's schema too), the failures a refused save (422) names, and
// which report belongs to which draft. No React, no fetch.
import {
  PolicyTestSchema,
  type Action,
  type Mode,
  type PolicyTest,
  type PolicyTestReport,
  type PolicyTestResult,
} from '../policy/types';
import { ApiError } from './api';

export interface TestFormValues {
  name: string;
  tool: string;
  agent: string;
  mode: Mode;
  /** The call's params as typed (JSON). */
  params: string;
  expect: Action;
}

/** Form keys: name, tool, agent, params, form. */
export type TestFormErrors = Partial<Record<'name' | 'tool' | 'agent' | 'params' | 'form', string>>;

export function emptyTestValues(): TestFormValues {
  return { name: '', tool: 'bash', agent: '', mode: 'default', params: '{\n  "command": ""\n}', expect: 'deny' };
}

export function valuesToTest(
  values: TestFormValues,
): { ok: true; test: PolicyTest } | { ok: false; errors: TestFormErrors } {
  let params: unknown;
  try {
    params = JSON.parse(values.params.trim() || '{}');
  } catch (error) {
    return { ok: false, errors: { params: `Not valid JSON: ${(error as Error).message}` } };
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params))
    return { ok: false, errors: { params: 'Params must be a JSON object, e.g. {"command": "ls"}' } };
  const candidate = {
    ...(values.name.trim() ? { name: values.name.trim() } : {}),
    call: { tool: values.tool.trim(), params, ...(values.agent.trim() ? { agent: values.agent.trim() } : {}) },
    expect: values.expect,
    ...(values.mode !== 'default' ? { mode: values.mode } : {}),
  };
  const parsed = PolicyTestSchema.safeParse(candidate);
  if (parsed.success) return { ok: true, test: parsed.data };
  const errors: TestFormErrors = {};
  for (const issue of parsed.error.issues) {
    const [head, second] = issue.path.map(String);
    const key =
      head === 'name'
        ? 'name'
        : head === 'call' && (second === 'tool' || second === 'agent')
          ? second
          : head === 'call'
            ? 'params'
            : 'form';
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The failing tests a refused save names (422 `unprocessable:policy_tests`); undefined for other errors. */
export function failedTests(error: unknown): PolicyTestResult[] | undefined {
  if (!(error instanceof ApiError) || error.status !== 422) return undefined;
  const failures = error.body.failures;
  return Array.isArray(failures) ? (failures as PolicyTestResult[]) : [];
}

/** A report as the panel keeps it: valid only for the tests and the rules version it was run on. */
export interface ShownReport {
  key: string;
  report: PolicyTestReport;
}

export const reportKey = (tests: readonly PolicyTest[], version: number) => `${version}:${JSON.stringify(tests)}`;
