// POST /api/auth/password: the caller changes their own password (any role), confirming the
// current one. Their other sessions end; the session the request came from stays signed in.
// Wrong current passwords count against the login throttle. Audited as `user_password_changed`.
import { changeOwnPassword, clientIp } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { handle, signedIn } from '@/lib/server/http/handler';
import { auditAccount } from '../../users/audit';
import { ChangeOwnPasswordSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('signed-in', async (request, _params, rt, user) => {
  const { currentPassword, password } = await readJson(request, ChangeOwnPasswordSchema, rt.config.maxBodyBytes);
  const me = signedIn(user);
  const ip = clientIp(request.headers, { trustedProxies: rt.config.trustedProxies });
  const changed = await changeOwnPassword({ q: rt.q, userId: me.id, currentPassword, password, keepSessionId: me.sessionId, throttle: rt.loginThrottle, ip });
  await auditAccount(rt, me, 'user_password_changed', { userId: me.id, username: changed.username });
  return Response.json({ user: changed }, { headers: { 'Cache-Control': 'no-store' } });
});
