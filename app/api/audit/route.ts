// GET /api/audit: decisions, policy edits and grant changes, newest first, filtered, paginated.
import { handle, searchParams } from '@/lib/server/http/handler';
import { AuditQuerySchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('audit:read', async (request, _params, rt) => {
  const query = searchParams(request, AuditQuerySchema);
  const page = await rt.q.audit.listAudit(query);
  return Response.json({ items: page.items, nextCursor: page.nextCursor ?? null });
});
