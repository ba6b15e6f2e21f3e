// GET /api/runs?source=hook lists the sessions of outside agents (the Connect page's "connected
// sessions"), and nothing else; an unknown source is a 400 naming the field.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runs } from '@/lib/db/schema';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { GET } from './route';

const server = withRouteRuntime();

describe('GET /api/runs filters by source', () => {
  it('source=hook lists only hook runs; without it every run', async () => {
    const { q, database } = server.rt();
    const owner = (await q.users.getUserByUsername({ username: 'admin' }))?.id;
    await q.runs.createRun({ id: 'agent-run', sessionId: 's-agent', title: 'chat', owner });
    await q.runs.createRun({ id: 'hook-run', sessionId: 's-hook', title: '/home/ann/project', owner });
    await database.db
      .update(runs)
      .set({ source: 'hook', externalId: 'cc-1', agent: 'claude-code' })
      .where(eq(runs.id, 'hook-run'));

    const hook = await (await GET(apiRequest('GET', '/api/runs?source=hook'), noParams)).json();
    expect(hook.items.map((r: { id: string }) => r.id)).toEqual(['hook-run']);
    const all = await (await GET(apiRequest('GET', '/api/runs'), noParams)).json();
    expect(all.items.map((r: { id: string }) => r.id).sort()).toEqual(['agent-run', 'hook-run']);
    const own = await (await GET(apiRequest('GET', '/api/runs?source=agent'), noParams)).json();
    expect(own.items.map((r: { id: string }) => r.id)).toEqual(['agent-run']);
  });

  it('an unknown source is a 400 naming the field', async () => {
    const response = await GET(apiRequest('GET', '/api/runs?source=telepathy'), noParams);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('source');
  });
});
