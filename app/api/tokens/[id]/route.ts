// DELETE /api/tokens/:id: revokes one of the caller's own tokens at once. 404 for a token that is
// unknown, someone else's, or revoked already (no hint which).
import { AppError } from '@/lib/server/http/errors';
import { handle } from '@/lib/server/http/handler';
import { auditAccount } from '../../users/audit';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = handle<{ id: string }>('tokens:manage:own', async (_request, { id }, rt, me) => {
  const revoked = await rt.q.tokens.revokeApiToken({ id, userId: me.id });
  if (!revoked) throw new AppError('not_found:token', 404, 'No such live token of yours');
  await auditAccount(rt, me, 'token_revoked', { tokenId: id, name: revoked.name, userId: me.id });
  return Response.json({ success: true });
});
