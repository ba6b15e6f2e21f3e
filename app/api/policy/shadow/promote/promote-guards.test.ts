// POST /api/policy/shadow/promote stores what a save would store, and only the shadow the admin
// reviewed: the policy's tests are judged against the workspace (as PUT /api/policy judges them),
// and `?id=` names the shadow, so one another admin set since is not promoted in its place.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GET as getPolicy } from '@/app/api/policy/route';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { PUT as putShadow } from '../route';
import { POST as promote } from './route';

const runtime = withRouteRuntime();

const liveVersion = async (): Promise<number> =>
  (await (await getPolicy(apiRequest('GET', '/api/policy'), noParams)).json()).version;

async function setShadow(policy: unknown): Promise<string> {
  const response = await putShadow(apiRequest('PUT', '/api/policy/shadow', { json: { policy } }), noParams);
  expect(response.status).toBe(200);
  return (await response.json()).shadow.id;
}

const promoteAt = async (query = '') =>
  promote(
    apiRequest('POST', `/api/policy/shadow/promote${query}`, { headers: { 'if-match': `"${await liveVersion()}"` } }),
    noParams,
  );

describe('promoting the shadow', () => {
  it("judges the policy's tests against the workspace, as a save does: a failing test is a 422", async () => {
    // Passes only where relative paths resolve against the process's directory, not the workspace.
    const elsewhere = path.join(process.cwd(), 'src', 'a.ts');
    expect(runtime.rt().config.workspace).not.toBe(process.cwd());
    await setShadow({
      rules: [{ action: 'allow', tool: 'read_file', params: { path: 'src/**' } }],
      tests: [{ name: 'reads src', call: { tool: 'read_file', params: { path: elsewhere } }, expect: 'allow' }],
    });
    const before = await liveVersion();
    const response = await promoteAt();
    expect(response.status).toBe(422);
    expect(await liveVersion()).toBe(before);
  });

  it('with ?id= promotes only that shadow: one set since by another admin is a 404, the live policy unchanged', async () => {
    const reviewed = await setShadow({ rules: [{ action: 'deny', tool: 'bash' }] });
    await setShadow({ defaultAction: 'allow', rules: [] });
    const before = await liveVersion();
    const response = await promoteAt(`?id=${encodeURIComponent(reviewed)}`);
    expect(response.status).toBe(404);
    expect(await liveVersion()).toBe(before);
  });
});
