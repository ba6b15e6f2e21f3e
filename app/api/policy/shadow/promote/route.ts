// POST /api/policy/shadow/promote: the shadow becomes the live policy in one step (a new version,
// audited; the shadow is cleared). `If-Match: "<live version>"` is required (428 without it, 412
// when the live policy changed since); 404 when no shadow is set, or (`?id=`, the shadow the admin
// reviewed) when another was set since. Its tests are judged against the workspace, as a save's.
import { z } from 'zod';
import { handle, searchParams } from '@/lib/server/http/handler';
import { promoteShadow } from '@/lib/server/shadow/shadow-store';
import { expectedVersion } from '../../schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const QuerySchema = z.object({ id: z.string().min(1).max(100).optional() });

export const POST = handle('policy:edit', async (request, _params, rt, user) => {
  const expected = expectedVersion(request);
  const query = searchParams(request, QuerySchema);
  const saved = await promoteShadow(rt.shadow, {
    expectedVersion: expected,
    promotedBy: user.username,
    id: query.id,
    workspaceRoot: rt.config.workspace,
  });
  return Response.json(saved, { headers: { ETag: `"${saved.version}"` } });
});
