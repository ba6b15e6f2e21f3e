// Policy tests on the server: every save runs them (PUT /api/policy and POST /api/policy/import
// refuse a policy whose tests fail with a 422 naming each, and the live policy stays as it was),
// POST /api/policy/tests runs them without saving, for admins only, and history keeps them.
import { describe, expect, it } from 'vitest';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { GET as getPolicy, PUT as putPolicy } from '../route';
import { POST as importPolicy } from '../import/route';
import { GET as getVersions } from '../versions/route';
import { POST as runTests } from './route';

const server = withRouteRuntime();

const rules = [
  { action: 'allow', tool: 'bash', params: { command: 'git status' } },
  { action: 'deny', tool: 'bash', params: { command: 'rm -rf *' } },
];
const passing = { call: { tool: 'bash', params: { command: 'rm -fr build' } }, expect: 'deny' };
const failing = { name: 'status is free', call: { tool: 'bash', params: { command: 'git status' } }, expect: 'deny' };

async function live(): Promise<{ version: number; policy: { tests?: unknown[]; rules: unknown[] } }> {
  return (await getPolicy(apiRequest('GET', '/api/policy'), noParams)).json();
}

const put = (version: number, policy: unknown, token?: string) =>
  putPolicy(
    apiRequest('PUT', '/api/policy', { token, json: { policy }, headers: { 'if-match': `"${version}"` } }),
    noParams,
  );

describe('PUT /api/policy runs the policy tests', () => {
  it('refuses a policy whose tests fail with 422 naming each failing test, and keeps the live policy', async () => {
    const before = await live();
    const response = await put(before.version, {
      rules,
      tests: [passing, failing, { call: { tool: 'bash', params: { command: 'ls' } }, expect: 'allow', mode: 'plan' }],
    });
    expect(response.status).toBe(422);
    const { error } = await response.json();
    expect(error.code).toBe('unprocessable:policy_tests');
    expect(error.fields).toEqual([
      { path: 'tests.1', message: 'test #2 "status is free": bash {"command":"git status"}: expected deny, got allow' },
      { path: 'tests.2', message: 'test #3: bash {"command":"ls"} in mode plan: expected allow, got deny' },
    ]);
    expect(
      error.failures.map((f: { index: number; expect: string; got: string }) => [f.index, f.expect, f.got]),
    ).toEqual([
      [1, 'deny', 'allow'],
      [2, 'allow', 'deny'],
    ]);
    expect(error.message).toMatch(/^The policy was not saved: 2 of 3 tests fail/);
    expect(await live()).toEqual(before);
  });

  it('saves a policy whose tests pass, and the version history keeps them', async () => {
    const before = await live();
    const response = await put(before.version, { rules, tests: [passing] });
    expect(response.status).toBe(200);
    const saved = await response.json();
    expect(saved.policy.tests).toEqual([passing]);
    expect((await live()).policy.tests).toEqual([passing]);
    const { items } = await (await getVersions(apiRequest('GET', '/api/policy/versions'), noParams)).json();
    expect(items[0]).toMatchObject({ version: saved.version, policy: { tests: [passing] } });
  });

  it('refuses malformed or too many tests with 400 naming the field', async () => {
    const { version } = await live();
    const bad = await put(version, { rules, tests: [{ call: { tool: 'bash', params: {} }, expect: 'sometimes' }] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.fields).toEqual([expect.objectContaining({ path: 'tests.0.expect' })]);
    const many = await put(version, { rules, tests: Array.from({ length: 5_000 }, () => passing) });
    expect(many.status).toBe(400);
    expect((await many.json()).error.fields).toEqual([expect.objectContaining({ path: 'tests' })]);
  });
});

describe('POST /api/policy/import runs the policy tests', () => {
  it('refuses an import whose tests fail with 422, in a foreign format too, and keeps the live policy', async () => {
    const before = await live();
    const doc = { allowlist: [{ tool: 'bash', params: { command: 'git status' } }], tests: [failing] };
    const response = await importPolicy(
      apiRequest('POST', '/api/policy/import', { json: doc, headers: { 'if-match': `"${before.version}"` } }),
      noParams,
    );
    expect(response.status).toBe(422);
    expect((await response.json()).error.fields).toEqual([
      { path: 'tests.0', message: 'test #1 "status is free": bash {"command":"git status"}: expected deny, got allow' },
    ]);
    expect(await live()).toEqual(before);
  });

  it('imports a policy whose tests pass, with its tests', async () => {
    const before = await live();
    const doc = {
      default_action: 'deny',
      rules: [{ tool: 'bash', action: 'approve' }],
      tests: [{ call: { tool: 'bash', params: { command: 'ls' } }, expect: 'approve' }],
    };
    const response = await importPolicy(
      apiRequest('POST', '/api/policy/import', { json: doc, headers: { 'if-match': `"${before.version}"` } }),
      noParams,
    );
    expect(response.status).toBe(200);
    expect((await live()).policy.tests).toEqual([{ call: { tool: 'bash', params: { command: 'ls' } }, expect: 'ask' }]);
  });
});

describe('POST /api/policy/tests runs the tests without saving', () => {
  const run = (json: unknown, token?: string) =>
    runTests(apiRequest('POST', '/api/policy/tests', { json, token }), noParams);

  it("answers each test's result and saves nothing", async () => {
    const before = await live();
    const response = await run({ policy: { rules, tests: [passing, failing] } });
    expect(response.status).toBe(200);
    const report = await response.json();
    expect(report).toMatchObject({ passed: 1, failed: 1 });
    expect(report.results[1]).toMatchObject({
      index: 1,
      name: 'status is free',
      expect: 'deny',
      got: 'allow',
      pass: false,
      reason: 'matched_rule',
      rule: { index: 0 },
    });
    expect(report.results[1].explanation).toMatch(/rule #1/);
    expect(await live()).toEqual(before);
  });

  it('resolves paths against the server workspace', async () => {
    const workspace = server.rt().config.workspace;
    const response = await run({
      policy: {
        rules: [{ action: 'deny', tool: 'read_file', params: { path: `${workspace}/.env` } }],
        tests: [{ call: { tool: 'read_file', params: { path: '.env' } }, expect: 'deny' }],
      },
    });
    expect(await response.json()).toMatchObject({ passed: 1, failed: 0 });
  });

  it('refuses a missing or invalid policy with 400 naming the field', async () => {
    const missing = await run({});
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.fields).toEqual([expect.objectContaining({ path: 'policy' })]);
    const invalid = await run({ policy: { rules, tests: [{ call: { tool: 'bash' }, expect: 'deny' }] } });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error.fields).toEqual([expect.objectContaining({ path: 'tests.0.call.params' })]);
  });

  it('is for admins: a user or an approver is 403, and their saves are refused before the tests run', async () => {
    for (const role of ['user', 'approver'] as const) {
      const token = await server.tokenFor(role);
      const response = await run({ policy: { rules, tests: [passing] } }, token);
      expect(response.status).toBe(403);
      expect((await response.json()).error.code).toBe('forbidden:policy:edit');
      const { version } = await live();
      expect((await put(version, { rules, tests: [failing] }, token)).status).toBe(403);
    }
  });
});
