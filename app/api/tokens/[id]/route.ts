// DELETE /api/tokens/:id: revokes one of the caller's own tokens at once. 404 for a token that is
// unknown, someone else's, or revoked already (no hint which).
import { revokeApiToken } from '@/lib/auth';
import { AppError } from '@/lib/server/http/errors';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = handle<{ id: string }>('tokens:manage:own', async (_request, { id }, rt, me) => {
  const revoked = await revokeApiToken({
    q: rt.q,
    id,
    userId: me.id,
    audit: {
      by: me.username,
      kind: 'token_revoked',
      details: (t) => t && { tokenId: id, name: t.name, userId: me.id },
    },
  });
  if (!revoked) throw new AppError('not_found:token', 404, 'No such live token of yours');
  return Response.json({ success: true });
});
