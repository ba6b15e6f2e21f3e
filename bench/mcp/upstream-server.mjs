// bench:mcp's upstream MCP server, a process of its own as an HTTP MCP server is for its clients:
// the official SDK's server with two read-only tools over Streamable HTTP (`echo`, and `blob`, a
// large result), a fresh server per request (stateless), JSON answers. Prints its port on stdout
// once listening. Plain JS, run by bare node (bench/mcp/child.ts).
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const LINE = 'a line of the file it read\n';

const server = createServer(async (req, res) => {
  const mcp = new McpServer({ name: 'bench-upstream', version: '1.0.0' });
  mcp.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: { text: z.string() }, annotations: { readOnlyHint: true } },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  mcp.registerTool(
    'blob',
    {
      description: 'Returns that many bytes of text (a large result)',
      inputSchema: { bytes: z.number().int().min(0).max(10_000_000) },
      annotations: { readOnlyHint: true },
    },
    async ({ bytes }) => ({
      content: [{ type: 'text', text: LINE.repeat(Math.ceil(bytes / LINE.length)).slice(0, bytes) }],
    }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => void transport.close().then(() => mcp.close()));
  await mcp.connect(transport);
  await transport.handleRequest(req, res);
});
server.listen(0, '127.0.0.1', () => console.log(String(server.address().port)));
process.on('SIGTERM', () => process.exit(0));
