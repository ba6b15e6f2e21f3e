// DELETE /api/tokens/:id: revokes one of the caller's own tokens at once. PATCH sets what an MCP
// client using the token gets on ask when it cannot answer elicitation (`wait` or `decline`, taken
// by sessions opened afterwards). 404 for a token that is unknown, someone else's, or revoked
// already (no hint which).
import { revokeApiToken } from '@/lib/auth';
import { AppError } from '@/lib/server/http/errors';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { exposedToolsKey, withoutElicitationKey } from '@/lib/server/mcp-server/token-settings';
import { TokenSettingsSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const DELETE = handle<{ id: string }>('tokens:manage:own', async (_request, { id }, rt, me) => {
  const revoked = await revokeApiToken({
    q: rt.q,
    id,
    userId: me.id,
    audit: {
      by: me.username,
      kind: 'token_revoked',
      details: (t) => t && { tokenId: id, name: t.name, userId: me.id },
    },
  });
  if (!revoked) throw new AppError('not_found:token', 404, 'No such live token of yours');
  return Response.json({ success: true });
});

export const PATCH = handle<{ id: string }>('tokens:manage:own', async (request, { id }, rt, me) => {
  const body = await readJson(request, TokenSettingsSchema, rt.config.maxBodyBytes);
  const mine = (await rt.q.tokens.listApiTokens({ userId: me.id })).some((t) => t.id === id);
  if (!mine) throw new AppError('not_found:token', 404, 'No such live token of yours');
  if (body.mcpWithoutElicitation !== undefined)
    await rt.q.settings.putSetting({ key: withoutElicitationKey(id), value: body.mcpWithoutElicitation });
  if (body.mcpTools !== undefined)
    await rt.q.settings.putSetting({
      key: exposedToolsKey(id),
      value: body.mcpTools === null ? '' : JSON.stringify(body.mcpTools),
    });
  return Response.json({
    id,
    ...(body.mcpWithoutElicitation !== undefined ? { mcpWithoutElicitation: body.mcpWithoutElicitation } : {}),
    ...(body.mcpTools !== undefined ? { mcpTools: body.mcpTools } : {}),
  });
});
