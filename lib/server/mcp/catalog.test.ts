// The catalog against the real reference servers over stdio: listing with names and risks,
// validation before any call, results kept whole, the scrubbed environment, timeouts, a server
// that never starts, and a crash followed by a reconnect.
import { afterEach, describe, expect, it } from 'vitest';
import { McpCatalog } from './catalog';
import { everythingStdio, silentLog } from './test-support';

let catalog: McpCatalog | undefined;
afterEach(async () => {
  await catalog?.close();
  catalog = undefined;
});

const signal = () => new AbortController().signal;
const text = (result: { content: { type: string; text?: unknown }[] }) =>
  result.content.map((c) => (c.type === 'text' ? String(c.text) : '')).join('');

async function start(
  servers: ConstructorParameters<typeof McpCatalog>[0]['servers'],
  options: Partial<ConstructorParameters<typeof McpCatalog>[0]> = {},
) {
  catalog = new McpCatalog({ servers, log: silentLog(), ...options });
  await catalog.start();
  return catalog;
}

describe('MCP catalog with server-everything over stdio', () => {
  it('lists each tool as mcp__<server>__<tool> with its schema, annotations and risk', async () => {
    const c = await start([{ name: 'everything', config: everythingStdio() }]);
    const echo = c.listTools().find((t) => t.name === 'mcp__everything__echo');
    expect(echo).toMatchObject({
      server: 'everything',
      upstreamName: 'echo',
      annotations: { readOnlyHint: true },
      // Not trusted: a read-only claim does not lower the risk below write.
      risk: 'write',
      paramKinds: {},
    });
    expect(echo?.inputSchema).toMatchObject({ type: 'object', required: ['message'] });
  });

  it('a trusted server lowers the risk by its annotations; paramKinds come from the config', async () => {
    const c = await start([
      { name: 'everything', config: everythingStdio({ trusted: true, paramKinds: { echo: { message: 'path' } } }) },
    ]);
    expect(c.listTools().find((t) => t.name === 'mcp__everything__echo')).toMatchObject({
      risk: 'read_only',
      paramKinds: { message: 'path' },
    });
  });

  it('calls a tool and keeps text, images and structuredContent', async () => {
    const c = await start([{ name: 'everything', config: everythingStdio() }]);
    expect(text(await c.callTool('mcp__everything__echo', { message: 'hi' }, { signal: signal() }))).toContain('hi');
    const image = await c.callTool('mcp__everything__get-tiny-image', {}, { signal: signal() });
    expect(image.content.some((b) => b.type === 'image' && typeof (b as { data?: unknown }).data === 'string')).toBe(
      true,
    );
    const structured = await c.callTool(
      'mcp__everything__get-structured-content',
      { location: 'Chicago' },
      { signal: signal() },
    );
    expect(structured.structuredContent).toBeDefined();
  });

  it('arguments are validated against the input schema before anything is sent', async () => {
    const c = await start([{ name: 'everything', config: everythingStdio() }]);
    expect(c.validate('mcp__everything__echo', {})).toMatchObject({ valid: false });
    expect(c.validate('mcp__everything__echo', { message: 3 })).toMatchObject({ valid: false });
    expect(c.validate('mcp__everything__echo', { message: 'ok' })).toEqual({ valid: true });
    const result = await c.callTool('mcp__everything__echo', { message: 3 }, { signal: signal() });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Invalid input for mcp__everything__echo/);
  });

  it('a stdio server gets a scrubbed environment plus its configured env', async () => {
    process.env.GATEHOUSE_TEST_LEAK = 'must-not-reach-the-server';
    try {
      const c = await start([{ name: 'everything', config: everythingStdio({ env: { CONFIGURED: 'yes' } }) }]);
      const env = text(await c.callTool('mcp__everything__get-env', {}, { signal: signal() }));
      expect(env).toContain('CONFIGURED');
      expect(env).not.toContain('GATEHOUSE_TEST_LEAK');
    } finally {
      delete process.env.GATEHOUSE_TEST_LEAK;
    }
  });

  it('a call past its timeout ends as a tool error, promptly', async () => {
    const c = await start([{ name: 'everything', config: everythingStdio({ timeoutMs: 300 }) }]);
    const started = Date.now();
    const result = await c.callTool(
      'mcp__everything__trigger-long-running-operation',
      { duration: 30, steps: 2 },
      { signal: signal() },
    );
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/timed out|timeout/i);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a server that never starts fails fast with a clear error, and the other servers work', async () => {
    const c = await start([
      { name: 'broken', config: { command: '/nonexistent/mcp-server' } },
      { name: 'everything', config: everythingStdio() },
    ]);
    expect(c.server('broken')?.state).toBe('unavailable');
    const started = Date.now();
    const result = await c.callTool('mcp__broken__anything', {}, { signal: signal() });
    expect(result.isError).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(text(await c.callTool('mcp__everything__echo', { message: 'still here' }, { signal: signal() }))).toContain(
      'still here',
    );
  });

  it('a crashed server is unavailable at once, then reconnects with backoff', async () => {
    const c = await start([{ name: 'everything', config: everythingStdio() }], {
      upstream: { backoff: { initialMs: 50, maxMs: 200 } },
    });
    const upstream = c.server('everything')!;
    const pid = (upstream as unknown as { client: { transport: { pid: number } } }).client.transport.pid;
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => upstream.state, { timeout: 10_000 }).not.toBe('ready');
    await expect.poll(() => upstream.state, { timeout: 20_000 }).toBe('ready');
    expect(text(await c.callTool('mcp__everything__echo', { message: 'back' }, { signal: signal() }))).toContain(
      'back',
    );
  });
});
