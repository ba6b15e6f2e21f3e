// PATCH /api/users/:id: changes the role, the display name, or disables / enables a user.
// Disabling ends their sessions and stops their tokens; 409 conflict:last_admin when the change
// would leave no enabled admin (then nothing of it is made); 404 for an unknown user.
import { toPublicUser, updateAccount, UserNotFoundError, type PublicUser } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { UpdateUserSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const PATCH = handle<{ id: string }>('users:manage', async (request, { id }, rt, user) => {
  const body = await readJson(request, UpdateUserSchema, rt.config.maxBodyBytes);
  const before = await rt.q.users.getUser({ id });
  if (!before) throw new UserNotFoundError(id);
  // Only what differs is written, all of it in one transaction: a refused change (the last
  // admin) changes nothing, the display name included.
  const differs = <K extends keyof typeof body>(key: K) => body[key] !== undefined && body[key] !== before[key];
  const change = {
    ...(differs('displayName') ? { displayName: body.displayName } : {}),
    ...(differs('role') ? { role: body.role } : {}),
    ...(differs('disabled') ? { disabled: body.disabled } : {}),
  };
  // The audit row (what changed, from and to) is written in the change's transaction.
  const changesOf = (after: PublicUser) =>
    Object.fromEntries(
      (['displayName', 'role', 'disabled'] as const)
        .filter((key) => before[key] !== after[key])
        .map((key) => [key, { from: before[key], to: after[key] }]),
    );
  const after =
    Object.keys(change).length === 0
      ? toPublicUser(before)
      : await updateAccount({
          q: rt.q,
          id,
          ...change,
          audit: {
            by: user.username,
            kind: 'user_changed',
            details: (u) =>
              Object.keys(changesOf(u)).length > 0
                ? { userId: id, username: u.username, changes: changesOf(u) }
                : undefined,
          },
        });
  return Response.json({ user: after });
});
