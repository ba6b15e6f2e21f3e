// GET /api/audit: decisions, policy edits and grant changes, newest first, filtered, paginated.
import { AppError } from '@/lib/server/http/errors';
import { handle, searchParams } from '@/lib/server/http/handler';
import { AuditQuerySchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('audit:read', async (request, _params, rt) => {
  const query = AuditQuerySchema.safeParse(searchParams(request));
  if (!query.success) throw AppError.fromZod(query.error, 'query');
  const page = await rt.q.audit.listAudit(query.data);
  return Response.json({ items: page.items, nextCursor: page.nextCursor ?? null });
});
