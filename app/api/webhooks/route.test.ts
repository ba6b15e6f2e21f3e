// /api/webhooks: admins register endpoints (the secret shown once, stored sealed), list them
// without secrets, read each one's delivery log and delete them; bad URLs are a 422 naming `url`.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { GET as listHooks, POST as createHook } from './route';
import { DELETE as deleteHook } from './[id]/route';
import { GET as listDeliveries } from './[id]/deliveries/route';

process.env.GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE = '1';
const server = withRouteRuntime('gatehouse-webhooks-');
const withId = (id: string) => ({ params: Promise.resolve({ id }) });

const create = (json: unknown, token?: string) =>
  createHook(apiRequest('POST', '/api/webhooks', { json, ...(token ? { token } : {}) }), noParams);

describe('/api/webhooks', () => {
  it('shows the secret once, stores it sealed, and lists endpoints without it', async () => {
    const response = await create({ url: 'http://127.0.0.1:9/hook', format: 'slack' });
    expect(response.status).toBe(201);
    const created = await response.json();
    expect(created).toMatchObject({
      url: 'http://127.0.0.1:9/hook',
      format: 'slack',
      events: ['relay.created', 'relay.resolved', 'relay.expired'],
    });
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await (await listHooks(apiRequest('GET', '/api/webhooks'), noParams)).text();
    expect(listed).toContain(created.id);
    expect(listed).not.toContain(created.secret);
    const stored = await server.rt().database.db.execute(sql`SELECT secret FROM webhook_endpoints`);
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    const audit = await server.rt().database.db.execute(sql`SELECT details FROM audit`);
    expect(JSON.stringify(audit)).not.toContain(created.secret);

    const log = await listDeliveries(apiRequest('GET', `/api/webhooks/${created.id}/deliveries`), withId(created.id));
    expect(await log.json()).toEqual({ items: [], nextCursor: null });
    expect((await deleteHook(apiRequest('DELETE', `/api/webhooks/${created.id}`), withId(created.id))).status).toBe(
      200,
    );
    expect((await deleteHook(apiRequest('DELETE', `/api/webhooks/${created.id}`), withId(created.id))).status).toBe(
      404,
    );
  });

  it.each([
    [{ url: 'file:///etc/passwd' }, 'url'],
    [{ url: 'http://127.0.0.1:3000/api/chat' }, 'url'],
    [{ url: 'http://127.0.0.1:9/hook', events: [] }, 'events'],
    [{ url: 'http://127.0.0.1:9/hook', events: ['relay.deleted'] }, 'events.0'],
    [{ url: 'http://127.0.0.1:9/hook', format: 'xml' }, 'format'],
  ])('%j is refused naming %s', async (json, field) => {
    const response = await create(json);
    expect([400, 422]).toContain(response.status);
    const { error } = await response.json();
    expect(error.fields.map((f: { path: string }) => f.path)).toContain(field);
  });

  it('only admins manage webhooks', async () => {
    const token = await server.tokenFor('approver');
    expect((await create({ url: 'http://127.0.0.1:9/hook' }, token)).status).toBe(403);
    expect((await listHooks(apiRequest('GET', '/api/webhooks', { token }), noParams)).status).toBe(403);
  });
});
