// GET /api/webhooks: the registered endpoints (never their secrets).
// POST /api/webhooks: registers one; the signing secret is in this answer only (201). Admins only.
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { registerEndpoint, toWebhookEndpoint } from '@/lib/server/webhooks/endpoints';
import { CreateWebhookSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('webhooks:manage', async (_request, _params, rt) => {
  const rows = await rt.q.webhooks.listEndpoints();
  return Response.json({ items: rows.map(toWebhookEndpoint) }, { headers: { 'Cache-Control': 'no-store' } });
});

export const POST = handle('webhooks:manage', async (request, _params, rt, me) => {
  const input = await readJson(request, CreateWebhookSchema, rt.config.maxBodyBytes);
  const created = await registerEndpoint(rt, input, me.username);
  return Response.json(created, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});
