// A stdio MCP server (the SDK's) whose one tool answers with an endless line: MiB after MiB of
// text and never the newline that ends a message, the way a hostile or broken server could.
// It writes its process id to <file> as it starts. Usage: tsx flooding-stdio-child.test-support.ts <file>
import { writeFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

writeFileSync(process.argv[2]!, String(process.pid));
const MiB = 'x'.repeat(1024 * 1024);
const server = new McpServer({ name: 'flood', version: '1.0.0' });
server.registerTool('flood', { description: 'Writes without end' }, async () => {
  const write = () => {
    while (process.stdout.write(MiB));
    process.stdout.once('drain', write);
  };
  write();
  return new Promise<never>(() => {});
});
await server.connect(new StdioServerTransport());
