// POST /api/users/:id/password: an admin sets a user's password; the user's sessions end (all but
// the caller's own when admins set their own password).
import { resetPassword } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { ResetPasswordSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ id: string }>('users:manage', async (request, { id }, rt, me) => {
  const { password } = await readJson(request, ResetPasswordSchema, rt.config.maxBodyBytes);
  const changed = await resetPassword({
    q: rt.q,
    id,
    password,
    keepSessionId: me.id === id ? me.sessionId : undefined,
    audit: { by: me.username, kind: 'user_password_reset', details: (u) => ({ userId: id, username: u.username }) },
  });
  return Response.json({ user: changed });
});
