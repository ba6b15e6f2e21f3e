// DELETE /api/webhooks/:id: removes the endpoint and its delivery log; nothing more is sent to it.
import { handle } from '@/lib/server/http/handler';
import { endpointOr404 } from '@/lib/server/webhooks/endpoints';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = handle<{ id: string }>('webhooks:manage', async (_request, { id }, rt) => {
  await endpointOr404(rt.q, id);
  await rt.q.webhooks.deleteEndpoint({ id });
  return Response.json({ success: true });
});
