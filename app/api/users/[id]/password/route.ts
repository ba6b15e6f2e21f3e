// POST /api/users/:id/password: an admin sets a user's password; the user's existing sessions end.
import { resetPassword } from '@/lib/auth';
import { readJson } from '@/lib/server/body';
import { handle, signedIn } from '@/lib/server/handler';
import { auditAccount } from '../../audit';
import { ResetPasswordSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ id: string }>('users:manage', async (request, { id }, rt, user) => {
  const { password } = await readJson(request, ResetPasswordSchema, rt.config.maxBodyBytes);
  const changed = await resetPassword({ q: rt.q, id, password });
  await auditAccount(rt, signedIn(user), 'user_password_reset', { userId: id, username: changed.username });
  return Response.json({ user: changed });
});
