// GET /api/policy/shadow: the shadow policy (`{ shadow: null }` when none is set).
// PUT /api/policy/shadow: sets it, from `{ policy, note? }` or a bare policy in any importable
// format; it replaces the previous shadow and its differences. DELETE clears it (`?id=`: only
// that shadow; 404 when none, or another).
// Admins only: the shadow is a draft of the live policy.
import { z } from 'zod';
import { handle, searchParams } from '@/lib/server/http/handler';
import { readJson } from '@/lib/server/http/body';
import { clearShadow, setShadow } from '@/lib/server/shadow/shadow-store';
import { shadowDto } from '@/lib/server/shadow/dto';
import { PolicyBodySchema } from '../schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('policy:edit', async (_request, _params, rt) => {
  const row = await rt.q.shadow.getShadow();
  return Response.json({ shadow: row ? shadowDto(row) : null });
});

export const PUT = handle('policy:edit', async (request, _params, rt, user) => {
  const body = await readJson(request, PolicyBodySchema, rt.config.maxBodyBytes);
  const row = await setShadow(rt.shadow, { policy: body.policy ?? body, createdBy: user.username, note: body.note });
  return Response.json({ shadow: shadowDto(row) });
});

const DeleteQuerySchema = z.object({ id: z.string().min(1).max(100).optional() });

export const DELETE = handle('policy:edit', async (request, _params, rt) => {
  const query = searchParams(request, DeleteQuerySchema);
  await clearShadow(rt.shadow, query.id);
  return new Response(null, { status: 204 });
});
