// GET /api/servers: the upstream MCP servers (file and stored), their state, tools (annotations,
// risk, what the policy decides), changed definitions awaiting review, and the config file's errors.
import { handle } from '@/lib/server/http/handler';
import { serverViews } from '@/lib/server/mcp/views';
import { loadPolicy } from '@/lib/server/stores/policy-store';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handle('servers:manage', async (_request, _params, rt) => {
  const { policy } = await loadPolicy(rt.q);
  return Response.json({
    servers: await serverViews(rt.mcp, policy),
    errors: rt.mcp.errors,
    allowStdio: rt.config.mcpUiStdio,
  });
});
