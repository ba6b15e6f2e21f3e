// GET /api/webhooks/:id/deliveries: the endpoint's delivery log, newest first (status, attempts, last error).
import { handle, searchParams } from '@/lib/server/http/handler';
import { endpointOr404, toWebhookDelivery } from '@/lib/server/webhooks/endpoints';
import { DeliveriesQuerySchema } from '../../schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle<{ id: string }>('webhooks:manage', async (request, { id }, rt) => {
  const { limit, cursor } = searchParams(request, DeliveriesQuerySchema);
  await endpointOr404(rt.q, id);
  const page = await rt.q.webhooks.listDeliveries({ endpointId: id, limit, ...(cursor ? { cursor } : {}) });
  return Response.json({ items: page.items.map(toWebhookDelivery), nextCursor: page.nextCursor ?? null });
});
