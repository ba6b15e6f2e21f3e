// PATCH /api/tokens/:id: a token's MCP setting, set only by its owner, only to a known value.
import { describe, expect, it } from 'vitest';
import { apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { exposedToolsKey, withoutElicitationKey } from '@/lib/server/mcp-server/token-settings';
import { PATCH } from './route';

const server = withRouteRuntime('gatehouse-token-settings-');
const params = (id: string) => ({ params: Promise.resolve({ id }) });

describe('PATCH /api/tokens/:id', () => {
  it("sets the token's choice for MCP clients without elicitation; another user's token is 404; a bad value 400", async () => {
    const mine = await server.tokenFor('user');
    const theirs = await server.tokenFor('user');
    const { q } = server.rt();
    const [a, b] = (await q.tokens.listApiTokens({})).slice(-2);
    const set = (token: string, id: string, json: unknown) =>
      PATCH(apiRequest('PATCH', `/api/tokens/${id}`, { token, json }), params(id));
    expect((await set(mine, a!.id, { mcpWithoutElicitation: 'decline' })).status).toBe(200);
    expect(await q.settings.getSetting({ key: withoutElicitationKey(a!.id) })).toBe('decline');
    expect((await set(mine, a!.id, { mcpWithoutElicitation: 'wait' })).status).toBe(200);
    expect(await q.settings.getSetting({ key: withoutElicitationKey(a!.id) })).toBe('wait');
    expect((await set(mine, b!.id, { mcpWithoutElicitation: 'decline' })).status).toBe(404);
    expect(await q.settings.getSetting({ key: withoutElicitationKey(b!.id) })).toBeUndefined();
    const bad = await set(theirs, b!.id, { mcpWithoutElicitation: 'maybe' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain('mcpWithoutElicitation');
  });

  it("chooses which tools the token's MCP clients see (null: every tool again); bad patterns and empty bodies are 400", async () => {
    const token = await server.tokenFor('user');
    const { q } = server.rt();
    const [mine] = (await q.tokens.listApiTokens({})).slice(-1);
    const set = (json: unknown) =>
      PATCH(apiRequest('PATCH', `/api/tokens/${mine!.id}`, { token, json }), params(mine!.id));
    expect((await set({ mcpTools: ['read_file', 'mcp__github__*'] })).status).toBe(200);
    expect(await q.settings.getSetting({ key: exposedToolsKey(mine!.id) })).toBe('["read_file","mcp__github__*"]');
    expect((await set({ mcpTools: null })).status).toBe(200);
    expect(await q.settings.getSetting({ key: exposedToolsKey(mine!.id) })).toBe('');
    for (const body of [{}, { mcpTools: 'bash' }, { mcpTools: [''] }, { mcpTools: Array(101).fill('x') }]) {
      const response = await set(body);
      expect(response.status).toBe(400);
    }
  });
});
