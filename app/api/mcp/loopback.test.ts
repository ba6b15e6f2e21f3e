// Asked once, never twice: Gatehouse configured as an upstream MCP server of itself. A call its own
// agent makes through the catalog carries the loopback proof and runs without a second decision,
// once; the same call from any other MCP client is decided by the policy (here: denied).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { setPolicy } from '@/app/api/policy/set-policy.test-support';
import { POST } from './route';

/** /api/mcp on a real port, as another process would reach it. */
let http: Server;
beforeAll(async () => {
  http = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const response =
      req.method === 'POST'
        ? await POST(
            new Request(`http://127.0.0.1${req.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) }),
            noParams,
          )
        : new Response(null, { status: 405 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body?.getReader();
    for (let part = await reader?.read(); part && !part.done; part = await reader!.read()) res.write(part.value);
    res.end();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'gatehouse-mcp-self-')), 'mcp.json');
  writeFileSync(
    file,
    JSON.stringify({
      mcpServers: {
        self: {
          type: 'http',
          url: `http://127.0.0.1:${port}/api/mcp`,
          headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
        },
      },
    }),
  );
  process.env.GATEHOUSE_MCP_CONFIG = file;
});
const server = withRouteRuntime('gatehouse-mcp-self-');
afterAll(async () => {
  delete process.env.GATEHOUSE_MCP_CONFIG;
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

/** The run's end, polled (the agent runs detached from the request that started it). */
async function finished(runId: string) {
  const { q } = server.rt();
  for (let i = 0; i < 400; i++) {
    const run = await q.runs.getRun({ id: runId });
    if (run && run.status !== 'running' && run.status !== 'waiting') return run;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`run ${runId} did not finish`);
}

describe('Gatehouse as its own upstream', () => {
  it("its own agent's call is not decided a second time; another client's same call is", async () => {
    // The agent may use mcp__self__write_file; write_file itself is denied to everyone else.
    await setPolicy([
      { action: 'allow', tool: 'mcp__self__write_file' },
      { action: 'deny', tool: 'write_file' },
    ]);
    const rt = server.rt();
    await rt.mcp.start();
    const { runId } = await rt.runs.start({
      messages: [{ role: 'user', content: 'call mcp__self__write_file {"path":"self.txt","content":"once"}' }],
    });
    expect((await finished(runId)).status).toBe('done');
    const file = path.join(rt.config.workspace, 'self.txt');
    expect(readFileSync(file, 'utf8')).toBe('once');

    const client = new Client({ name: 'other', version: '1' });
    const { port } = http.address() as AddressInfo;
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
      }),
    );
    const direct = await client.callTool({ name: 'write_file', arguments: { path: 'other.txt', content: 'x' } });
    expect(direct.isError).toBe(true);
    await client.close();

    // The agent's decided call, sent again with its proof (as a replay would): nothing runs.
    const events = await rt.q.events.listEvents({ runId });
    const call = events.find((e) => e.type === 'tool_call')!.data.toolCallId as string;
    rmSync(file);
    const again = await rt.mcp.callTool(
      'mcp__self__write_file',
      { path: 'self.txt', content: 'once' },
      { signal: AbortSignal.timeout(30_000), origin: { run: runId, call } },
    );
    expect(again.isError).toBe(true);
    expect(JSON.stringify(again.content)).toContain('was not run again');
    expect(existsSync(file)).toBe(false);
  });
});
