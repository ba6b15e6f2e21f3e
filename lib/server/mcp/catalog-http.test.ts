// server-everything over Streamable HTTP (its own process): listed, called, and a call while it is
// down fails at once with a clear error.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { McpCatalog } from './catalog';
import { everythingScript, silentLog } from './test-support';

let child: ChildProcess;
let catalog: McpCatalog;

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  const port = await freePort();
  child = spawn(process.execPath, [everythingScript, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) } as unknown as NodeJS.ProcessEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Ready when it says it listens (stderr), not after a fixed sleep.
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code})`)));
  });
  catalog = new McpCatalog({
    servers: [{ name: 'everything', config: { type: 'http', url: `http://127.0.0.1:${port}/mcp` } }],
    log: silentLog(),
    upstream: { backoff: { initialMs: 60_000, maxMs: 60_000 } },
  });
  await catalog.start();
}, 60_000);
afterAll(async () => {
  await catalog?.close();
  child?.kill();
});

it('server-everything over Streamable HTTP: listed with its names and called', async () => {
  expect(catalog.server('everything')?.state).toBe('ready');
  expect(catalog.listTools().map((t) => t.name)).toContain('mcp__everything__get-sum');
  const result = await catalog.callTool(
    'mcp__everything__get-sum',
    { a: 2, b: 3 },
    { signal: new AbortController().signal },
  );
  expect(JSON.stringify(result.content)).toContain('5');
});

it('after the server died, a call fails and the next ones fail fast as unavailable', async () => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  const started = Date.now();
  const first = await catalog.callTool(
    'mcp__everything__get-sum',
    { a: 1, b: 1 },
    { signal: new AbortController().signal },
  );
  expect(first.isError).toBe(true);
  const second = await catalog.callTool(
    'mcp__everything__get-sum',
    { a: 1, b: 1 },
    { signal: new AbortController().signal },
  );
  expect(second.isError).toBe(true);
  expect(JSON.stringify(second.content)).toMatch(/unavailable/);
  expect(Date.now() - started).toBeLessThan(10_000);
});
