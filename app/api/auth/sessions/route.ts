// DELETE /api/auth/sessions: signs the caller out everywhere: every session of theirs ends, this
// one included (its cookie is cleared). API tokens are not sessions and stay valid. Answers how
// many sessions ended; audited as `user_sessions_ended`.
import { clearSessionCookieHeader, endUserSessions, isSecureRequest } from '@/lib/auth';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = handle('signed-in', async (request, _params, rt, me) => {
  const ended = await endUserSessions({
    q: rt.q,
    userId: me.id,
    audit: {
      by: me.username,
      kind: 'user_sessions_ended',
      details: (n) => ({ userId: me.id, username: me.username, ended: n }),
    },
  });
  return Response.json(
    { ended },
    {
      headers: {
        'Set-Cookie': clearSessionCookieHeader({ secure: isSecureRequest(request) }),
        'Cache-Control': 'no-store',
      },
    },
  );
});
