// The floor of any MCP gateway over HTTP, for bench:mcp: a node http server in its own process (as
// Gatehouse is) that reads each request and forwards it to the upstream over a kept-alive
// connection, then sends the upstream's answer back (bare-proxy-server.mjs). No token, no session,
// no gate, no database: what a second HTTP hop through another process alone adds. The same proxy
// inside the benchmark's own process would add about half as much: no process switch on its hops.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-proxy-server.mjs');

export async function startBareProxy(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [SERVER, upstream], { stdio: ['ignore', 'pipe', 'inherit'] });
  // Never left behind, whatever ends the benchmark.
  process.once('exit', () => child.kill());
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bare proxy exited (${code}) before listening`)));
    child.stdout.once('data', (data: Buffer) => resolve(data.toString().trim()));
  });
  const target = new URL(upstream);
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
