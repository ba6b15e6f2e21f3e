// DELETE /api/users/:id/sessions: an admin signs a user out everywhere: every session of theirs
// ends at once, on every instance, and their open streams close. API tokens are not sessions
// (disabling the user revokes those too). Answers how many ended; 404 for an unknown user.
import { endUserSessions, UserNotFoundError } from '@/lib/auth';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = handle<{ id: string }>('users:manage', async (_request, { id }, rt, user) => {
  const target = await rt.q.users.getUser({ id });
  if (!target) throw new UserNotFoundError(id);
  const ended = await endUserSessions({
    q: rt.q,
    userId: id,
    audit: {
      by: user.username,
      kind: 'user_sessions_ended',
      details: (n) => ({ userId: id, username: target.username, ended: n }),
    },
  });
  return Response.json({ ended });
});
