// DELETE /api/grants/:id: revokes a grant; the next matching call asks again.
import { AppError } from '@/lib/server/http/errors';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = handle<{ id: string }>('grants:manage', async (_request, { id }, rt, me) => {
  const revoked = await rt.q.grants.revokeGrant({
    id,
    revokedBy: me.username,
    audit: (grant) => ({
      kind: 'grant_revoked',
      sessionId: grant.sessionId ?? undefined,
      decidedBy: me.username,
      rule: grant.rule,
      details: { grantId: id },
    }),
  });
  if (!revoked) throw new AppError('not_found:grant', 404, 'No such live grant');
  return Response.json({ success: true });
});
