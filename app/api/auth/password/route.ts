// POST /api/auth/password: the caller changes their own password (any role), confirming the
// current one. Their other sessions end; the session the request came from stays signed in.
// Wrong current passwords count against the login throttle. Audited as `user_password_changed`.
import { changeOwnPassword, clientIp } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { ChangeOwnPasswordSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('signed-in', async (request, _params, rt, user) => {
  const { currentPassword, password } = await readJson(request, ChangeOwnPasswordSchema, rt.config.maxBodyBytes);
  const ip = clientIp(request.headers, { trustedProxies: rt.config.trustedProxies });
  const audit = {
    by: user.username,
    kind: 'user_password_changed' as const,
    details: (u: { id: string; username: string }) => ({ userId: u.id, username: u.username }),
  };
  const changed = await changeOwnPassword({
    q: rt.q,
    userId: user.id,
    currentPassword,
    password,
    keepSessionId: user.sessionId,
    throttle: rt.loginThrottle,
    ip,
    audit,
  });
  return Response.json({ user: changed }, { headers: { 'Cache-Control': 'no-store' } });
});
