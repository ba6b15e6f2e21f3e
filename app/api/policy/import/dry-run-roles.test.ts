// POST /api/policy/import?dryRun=1 converts for anyone who may read the policy, but compiling an
// arbitrary document costs what its size costs (seconds for a body of regex rules): a caller who
// may not edit the policy is held to the per-run draft limits, as a draft sent to evaluate is.
import { describe, expect, it } from 'vitest';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST } from './route';

const runtime = withRouteRuntime();

const rules = Array.from({ length: 120 }, (_, i) => ({
  action: 'deny',
  tool: 't',
  when: [{ key: 'k', op: 'regex', value: `x${i}[a-z]{1,60}[0-9]{1,60}` }],
}));
const dryRun = (token: string | undefined, json: unknown) =>
  POST(apiRequest('POST', '/api/policy/import?dryRun=1', { json, ...(token ? { token } : {}) }), noParams);

describe('a dry run of the import', () => {
  it.each([
    ['a user', 'user'],
    ['an approver', 'approver'],
  ] as const)('by %s is held to the draft limits (400), before compiling', async (_who, role) => {
    const response = await dryRun(await runtime.tokenFor(role), { rules });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toMatch(/at most 100 rules/);
  });

  it('by a user still converts a small document', async () => {
    const response = await dryRun(await runtime.tokenFor('user'), { permissions: { allow: ['Bash(git status)'] } });
    expect(response.status).toBe(200);
  });

  it('by an admin converts any size', async () => {
    const response = await dryRun(undefined, { rules });
    expect(response.status).toBe(200);
  });
});
