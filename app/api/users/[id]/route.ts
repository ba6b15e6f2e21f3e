// PATCH /api/users/:id: changes the role, the display name, or disables / enables a user.
// Disabling ends their sessions and stops their tokens; 409 conflict:last_admin when the change
// would leave no enabled admin; 404 for an unknown user.
import { changeRole, setDisabled, toPublicUser, UserNotFoundError, type PublicUser } from '@/lib/auth';
import { readJson } from '@/lib/server/body';
import { handle, signedIn } from '@/lib/server/handler';
import { auditAccount } from '../audit';
import { UpdateUserSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const PATCH = handle<{ id: string }>('users:manage', async (request, { id }, rt, user) => {
  const body = await readJson(request, UpdateUserSchema, rt.config.maxBodyBytes);
  const before = await rt.q.users.getUser({ id });
  if (!before) throw new UserNotFoundError(id);
  let after: PublicUser = toPublicUser(before);
  if (body.displayName !== undefined && body.displayName !== before.displayName) {
    // lib/auth has no display-name service: nothing to guard, so the query is called directly.
    const result = await rt.q.users.updateUser({ id, displayName: body.displayName });
    if (!result.ok) throw new UserNotFoundError(id);
    after = toPublicUser(result.user);
  }
  if (body.role !== undefined && body.role !== before.role) after = await changeRole({ q: rt.q, id, role: body.role });
  if (body.disabled !== undefined && body.disabled !== before.disabled) after = await setDisabled({ q: rt.q, id, disabled: body.disabled });
  const changes = Object.fromEntries(
    (['displayName', 'role', 'disabled'] as const).filter((key) => before[key] !== after[key]).map((key) => [key, { from: before[key], to: after[key] }]),
  );
  if (Object.keys(changes).length > 0) await auditAccount(rt, signedIn(user), 'user_changed', { userId: id, username: after.username, changes });
  return Response.json({ user: after });
});
