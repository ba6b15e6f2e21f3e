// bench:mcp's upstream MCP server, a process of its own as an HTTP MCP server is for its clients:
// the official SDK's server with one read-only `echo` tool over Streamable HTTP, a fresh server per
// request (stateless), JSON answers. Prints its port on stdout once listening. Plain JS, run by
// bare node (bench/mcp/child.ts).
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const server = createServer(async (req, res) => {
  const mcp = new McpServer({ name: 'bench-upstream', version: '1.0.0' });
  mcp.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => void transport.close().then(() => mcp.close()));
  await mcp.connect(transport);
  await transport.handleRequest(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
