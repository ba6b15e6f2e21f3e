// The Tests panel's pure helpers: the add form's values become a test the server's schema accepts
// (errors land on the field that caused them), a refused save's failures are read from its 422,
// and a report is shown only for the tests and rules version it was run on.
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { emptyTestValues, failedTests, reportKey, valuesToTest } from './policy-tests';

const values = (patch: Partial<ReturnType<typeof emptyTestValues>>) => ({ ...emptyTestValues(), ...patch });

describe('valuesToTest', () => {
  it('builds the test, leaving out what was left empty or default', () => {
    expect(valuesToTest(values({ params: '{"command": "rm -rf /"}' }))).toEqual({
      ok: true,
      test: { call: { tool: 'bash', params: { command: 'rm -rf /' } }, expect: 'deny' },
    });
    expect(
      valuesToTest(
        values({
          name: ' no rm ',
          tool: ' read_file ',
          agent: 'reviewer',
          mode: 'plan',
          params: '{"path": "a"}',
          expect: 'allow',
        }),
      ),
    ).toEqual({
      ok: true,
      test: {
        name: 'no rm',
        call: { tool: 'read_file', params: { path: 'a' }, agent: 'reviewer' },
        expect: 'allow',
        mode: 'plan',
      },
    });
    expect(valuesToTest(values({ params: '  ' }))).toMatchObject({ ok: true, test: { call: { params: {} } } });
  });

  it('puts each error on the field that caused it', () => {
    expect(valuesToTest(values({ params: '{' }))).toMatchObject({
      ok: false,
      errors: { params: expect.stringMatching(/^Not valid JSON/) },
    });
    expect(valuesToTest(values({ params: '[1]' }))).toMatchObject({
      ok: false,
      errors: { params: expect.stringMatching(/JSON object/) },
    });
    expect(valuesToTest(values({ tool: ' ' }))).toMatchObject({
      ok: false,
      errors: { tool: 'tool must not be empty' },
    });
    expect(valuesToTest(values({ name: 'n'.repeat(300) }))).toMatchObject({
      ok: false,
      errors: { name: expect.any(String) },
    });
    expect(valuesToTest(values({ params: JSON.stringify({ command: 'x'.repeat(20_000) }) }))).toMatchObject({
      ok: false,
      errors: { params: expect.stringMatching(/at most 10,000 characters/) },
    });
  });
});

describe('failedTests', () => {
  it('reads the failures of a 422, and nothing from other errors', () => {
    const failure = { index: 1, expect: 'deny', got: 'allow' };
    expect(failedTests(new ApiError(422, 'unprocessable:policy_tests', 'x', [], { failures: [failure] }))).toEqual([
      failure,
    ]);
    expect(failedTests(new ApiError(400, 'bad_request:policy', 'x'))).toBeUndefined();
    expect(failedTests(new Error('x'))).toBeUndefined();
  });
});

describe('reportKey', () => {
  it('differs when the tests or the rules version differ', () => {
    const test = { call: { tool: 'bash', params: {} }, expect: 'ask' as const };
    expect(reportKey([test], 3)).toBe(reportKey([{ ...test }], 3));
    expect(reportKey([test], 3)).not.toBe(reportKey([test], 4));
    expect(reportKey([test], 3)).not.toBe(reportKey([{ ...test, expect: 'deny' }], 3));
  });
});
