// The floor of any MCP gateway over HTTP, for bench:mcp: a node http server in its own process (as
// Gatehouse is) that reads each request and forwards it to the upstream over a kept-alive
// connection, then sends the upstream's answer back (bare-proxy-server.mjs). No token, no session,
// no gate, no database: what a second HTTP hop through another process alone adds.
import { startChildServer } from './child';

export async function startBareProxy(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const { port, close } = await startChildServer('bare-proxy-server.mjs', [upstream]);
  return { url: `http://127.0.0.1:${port}${new URL(upstream).pathname}`, close };
}
