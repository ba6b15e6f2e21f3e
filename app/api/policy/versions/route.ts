// GET /api/policy/versions: every saved version, newest first (for history and restore).
import { z } from 'zod';
import { handle, searchParams } from '@/lib/server/http/handler';
import { MAX_INT4 } from '@/lib/server/http/input';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const QuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).optional(),
  before: z.coerce.number().int().min(1).max(MAX_INT4).optional(),
});

export const GET = handle('policy:read', async (request, _params, rt) => {
  const query = searchParams(request, QuerySchema);
  const versions = await rt.q.policies.listPolicyVersions({ limit: query.limit, beforeVersion: query.before });
  return Response.json({ items: versions });
});
