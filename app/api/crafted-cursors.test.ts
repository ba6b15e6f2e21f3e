// Every paged list route: a cursor is opaque to clients, so whatever a client crafts in one is input
// like any other, a 400 naming the parameter and never a 500 (an id PostgreSQL cannot take, a NUL,
// reached the query before CursorParam checked the id too).
import { describe, expect, it } from 'vitest';
import { apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { GET as audit } from './audit/route';
import { GET as relays } from './relays/route';
import { GET as runs } from './runs/route';
import { GET as sessions } from './sessions/route';
import { GET as deliveries } from './webhooks/[id]/deliveries/route';

const server = withRouteRuntime('gatehouse-cursors-');

/** A cursor as the API encodes them (lib/db/pagination.ts), around an id of the caller's choosing. */
const craftedCursor = (id: string) => Buffer.from(JSON.stringify([Date.now(), id])).toString('base64url');

type Get = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function webhookDeliveries(): Promise<[string, Get, Record<string, string>]> {
  const endpoint = await server.rt().q.webhooks.createEndpoint({
    url: 'https://hooks.example/in',
    events: ['relay.created'],
    format: 'json',
    secret: 'v1.sealed',
    createdBy: 'admin',
  });
  return [`/api/webhooks/${endpoint.id}/deliveries`, deliveries as Get, { id: endpoint.id }];
}

describe('a crafted cursor whose id holds a NUL character is a 400 naming the cursor', () => {
  it.each([
    ['GET /api/audit (an admin)', async () => ['/api/audit', audit as Get, {}] as const, 'admin'],
    ['GET /api/relays (a user)', async () => ['/api/relays', relays as Get, {}] as const, 'user'],
    ['GET /api/runs (a user)', async () => ['/api/runs', runs as Get, {}] as const, 'user'],
    ['GET /api/sessions (a user)', async () => ['/api/sessions', sessions as Get, {}] as const, 'user'],
    ['GET /api/webhooks/:id/deliveries (an admin)', webhookDeliveries, 'admin'],
  ] as const)('%s', async (_what, route, role) => {
    const [path, get, params] = await route();
    const token = await server.tokenFor(role);
    const response = await get(apiRequest('GET', `${path}?cursor=${craftedCursor('a\u0000b')}`, { token }), {
      params: Promise.resolve(params),
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('cursor');
  });
});
