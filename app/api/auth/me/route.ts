// GET /api/auth/me: who is signed in (401 when nobody), with the role's permissions.
import { handle } from '@/lib/server/http/handler';
import { toMe } from '../session';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('signed-in', async (_request, _params, _rt, user) =>
  Response.json(toMe(user), { headers: { 'Cache-Control': 'no-store' } }),
);
