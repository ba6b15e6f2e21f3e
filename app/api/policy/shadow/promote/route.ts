// POST /api/policy/shadow/promote: the shadow becomes the live policy in one step (a new version,
// audited; the shadow is cleared). `If-Match: "<live version>"` is required (428 without it, 412
// when the live policy changed since); 404 when no shadow is set.
import { handle } from '@/lib/server/http/handler';
import { promoteShadow } from '@/lib/server/shadow/shadow-store';
import { expectedVersion } from '../../schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('policy:edit', async (request, _params, rt, user) => {
  const expected = expectedVersion(request);
  const saved = await promoteShadow(rt.shadow, { expectedVersion: expected, promotedBy: user.username });
  return Response.json(saved, { headers: { ETag: `"${saved.version}"` } });
});
