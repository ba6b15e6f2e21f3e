// /api/mcp: Gatehouse as an MCP server (Streamable HTTP) for MCP clients with an API token. POST
// carries every message; there is no server-initiated stream (GET) and a session ends with its
// client (DELETE), so both are 405 as the transport allows. Malformed JSON-RPC is a JSON-RPC error.
import { agentRoute } from '@/lib/server/http/handler';
import { jsonRpcError } from '@/lib/server/mcp-server/json-rpc';
import { mcpPost } from '@/lib/server/mcp-server/route';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Served here when the custom server's fast path is not installed (`next start`, or the runtime failed at boot). */
export const POST = mcpPost;

const notAllowed = () =>
  jsonRpcError(405, -32000, 'Method not allowed: send every message with POST', null, { Allow: 'POST' });

export const GET = agentRoute('runs:start', async () => notAllowed());
export const DELETE = agentRoute('runs:start', async () => notAllowed());
