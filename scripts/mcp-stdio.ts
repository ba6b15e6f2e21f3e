// `npm run mcp:stdio -- --url http://127.0.0.1:3000/api/mcp --token <api token>`: Gatehouse's MCP
// server for clients that only speak stdio (Claude Desktop). The token may also come from
// GATEHOUSE_TOKEN, which keeps it out of the process list.
import { parseArgs } from 'node:util';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { bridge } from './mcp-bridge';

const { values } = parseArgs({
  options: { url: { type: 'string' }, token: { type: 'string' } },
  strict: true,
});
const token = values.token ?? process.env.GATEHOUSE_TOKEN;
if (!values.url || !token) {
  process.stderr.write(
    'usage: npm run mcp:stdio -- --url <gatehouse>/api/mcp --token <api token> (or GATEHOUSE_TOKEN)\n',
  );
  process.exit(2);
}
let url: URL;
try {
  url = new URL(values.url);
} catch {
  process.stderr.write(`--url is not a URL: ${values.url}\n`);
  process.exit(2);
}
await bridge(
  new StdioServerTransport(),
  new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
);
