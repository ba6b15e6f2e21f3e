// GET /api/tokens: the caller's own live API tokens (never the secret or its hash).
// POST /api/tokens: a new token for the caller; the secret is in this answer only (201). Its
// `purpose` is `full` unless `agent` is asked for (a token for an agent's hook: it only asks the gate).
import { createApiToken } from '@/lib/auth';
import type { ApiTokenRow } from '@/lib/db';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { CreateTokenSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const DAY_MS = 24 * 60 * 60 * 1000;

const toPublicToken = (
  row: Pick<ApiTokenRow, 'id' | 'name' | 'purpose' | 'createdAt' | 'expiresAt' | 'lastUsedAt'>,
) => ({
  id: row.id,
  name: row.name,
  purpose: row.purpose,
  createdAt: row.createdAt,
  expiresAt: row.expiresAt,
  lastUsedAt: row.lastUsedAt,
});

export const GET = handle('tokens:manage:own', async (_request, _params, rt, user) => {
  const rows = await rt.q.tokens.listApiTokens({ userId: user.id });
  return Response.json({ items: rows.map(toPublicToken) }, { headers: { 'Cache-Control': 'no-store' } });
});

export const POST = handle('tokens:manage:own', async (request, _params, rt, me) => {
  const { name, expiresInDays, purpose } = await readJson(request, CreateTokenSchema, rt.config.maxBodyBytes);
  const expiresAt = expiresInDays === undefined ? undefined : new Date(Date.now() + expiresInDays * DAY_MS);
  const created = await createApiToken({
    q: rt.q,
    userId: me.id,
    name,
    expiresAt,
    purpose,
    audit: {
      by: me.username,
      kind: 'token_created',
      details: (t) => ({ tokenId: t.id, name: t.name, userId: me.id, expiresAt: t.expiresAt, purpose: t.purpose }),
    },
  });
  return Response.json(created, { status: 201, headers: { 'Cache-Control': 'no-store' } });
});
