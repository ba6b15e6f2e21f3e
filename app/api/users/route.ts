// GET /api/users: every user (never a password hash), oldest first.
// POST /api/users: creates a user (201); 409 conflict:username when the name is taken (any case).
import { createUser, listUsers } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { CreateUserSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('users:manage', async (_request, _params, rt) =>
  Response.json({ items: await listUsers({ q: rt.q }) }),
);

export const POST = handle('users:manage', async (request, _params, rt, user) => {
  const body = await readJson(request, CreateUserSchema, rt.config.maxBodyBytes);
  const created = await createUser({
    q: rt.q,
    ...body,
    audit: {
      by: user.username,
      kind: 'user_created',
      details: (u) => ({ userId: u.id, username: u.username, role: u.role, password: u.hasPassword }),
    },
  });
  return Response.json({ user: created }, { status: 201 });
});
