// POST /api/users/:id/login-link: a one-time sign-in link (24 h) for a user, e.g. one without a
// password. Answers the path (`/login?token=...`); the page adds its own origin, which is right
// behind a proxy too. Shown once: only the token's hash is stored.
import { issueLoginToken, UserNotFoundError } from '@/lib/auth';
import { AppError } from '@/lib/server/http/errors';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ id: string }>('users:manage', async (_request, { id }, rt, user) => {
  const target = await rt.q.users.getUser({ id });
  if (!target) throw new UserNotFoundError(id);
  if (target.disabled)
    throw new AppError('conflict:user_disabled', 409, `${target.username} is disabled: enable the account first`);
  const { token, expiresAt } = await issueLoginToken({
    q: rt.q,
    userId: id,
    audit: {
      by: user.username,
      kind: 'user_login_link',
      details: (link) => ({ userId: id, username: target.username, expiresAt: link.expiresAt }),
    },
  });
  return Response.json(
    { path: `/login?token=${encodeURIComponent(token)}`, expiresAt },
    { status: 201, headers: { 'Cache-Control': 'no-store' } },
  );
});
