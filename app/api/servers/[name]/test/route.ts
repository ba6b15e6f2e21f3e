// POST /api/servers/:name/test: connects now and lists the tools; answers the state, the error
// if any, and how many tools it lists. 404 for an unknown server.
import { AppError } from '@/lib/server/http/errors';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle<{ name: string }>('servers:manage', async (_request, { name }, rt) => {
  const upstream = rt.mcp.server(name);
  if (!upstream) throw new AppError('not_found:mcp_server', 404, `No MCP server "${name}"`);
  await upstream.connect().catch(() => undefined);
  return Response.json({
    name,
    state: upstream.state,
    ...(upstream.lastError ? { error: upstream.lastError } : {}),
    tools: upstream.tools.size,
  });
});
