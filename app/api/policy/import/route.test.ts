// POST /api/policy/import reads Claude Code's settings.json: its rules govern every agent unless
// `?agent=` names one, and an entry it cannot convert is a 400 naming that entry.
import { describe, expect, it } from 'vitest';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST } from './route';

withRouteRuntime();

const settings = { model: 'sonnet', permissions: { allow: ['Bash(git status)'], deny: ['Read(./.env)'] } };
const dryRun = (query: string, json: unknown) =>
  POST(apiRequest('POST', `/api/policy/import?dryRun=1${query}`, { json }), noParams);

describe("POST /api/policy/import with Claude Code's settings", () => {
  it('converts them; the rules name no agent unless asked', async () => {
    const plain = await (await dryRun('', settings)).json();
    expect(plain.policy.rules[0]).toMatchObject({ action: 'deny', tool: 'read_file', params: { path: '.env' } });
    expect(plain.policy.rules.some((r: { agent?: string }) => r.agent)).toBe(false);
    const scoped = await (await dryRun('&agent=claude-code', settings)).json();
    expect(scoped.policy.rules.every((r: { agent?: string }) => r.agent === 'claude-code')).toBe(true);
  });

  it('names an entry it cannot convert with a 400', async () => {
    const response = await dryRun('', { permissions: { allow: ['Grep'] } });
    expect(response.status).toBe(400);
    const body = JSON.stringify(await response.json());
    expect(body).toContain('permissions.allow.0');
    expect(body).toContain('Grep');
  });
});
