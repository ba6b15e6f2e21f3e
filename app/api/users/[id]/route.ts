// PATCH /api/users/:id: changes the role, the display name, or disables / enables a user.
// Disabling ends their sessions and stops their tokens; 409 conflict:last_admin when the change
// would leave no enabled admin (then nothing of it is made); 404 for an unknown user.
import { toPublicUser, updateAccount, UserNotFoundError } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { auditAccount } from '../audit';
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
  const after = Object.keys(change).length === 0 ? toPublicUser(before) : await updateAccount({ q: rt.q, id, ...change });
  const changes = Object.fromEntries(
    (['displayName', 'role', 'disabled'] as const).filter((key) => before[key] !== after[key]).map((key) => [key, { from: before[key], to: after[key] }]),
  );
  if (Object.keys(changes).length > 0) await auditAccount(rt, user, 'user_changed', { userId: id, username: after.username, changes });
  return Response.json({ user: after });
});
