// A stdio MCP server (the SDK's) that appends its process id to a file as it starts, so a test can
// tell which of the servers Gatehouse started are still running. Usage: tsx pid-stdio-child.test-support.ts <file>
import { appendFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

appendFileSync(process.argv[2]!, `${process.pid}\n`);
const server = new McpServer({ name: 'pid', version: '1.0.0' });
server.registerTool('ping', { description: 'Answers pong' }, async () => ({
  content: [{ type: 'text', text: 'pong' }],
}));
await server.connect(new StdioServerTransport());
