// GET /api/relays: the relays the caller may decide, across runs and sources, oldest deadline
// first, filtered and cursor-paginated (`?status=pending` is the inbox, and the default).
import { handle, searchParams } from '@/lib/server/http/handler';
import { listInbox } from '@/lib/server/approvals/inbox';
import { RelaysQuerySchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('relays:decide:own', async (request, _params, rt, me) => {
  return Response.json(await listInbox(rt.q, me, searchParams(request, RelaysQuerySchema)));
});
