// Gatehouse's MCP server on two instances behind a balancer with no stickiness (docs/decisions/
// 0023): one SDK client's requests are spread over A and B. Its session, opened on A, works on B;
// a call held on A is approved with POST /api/chat/relay/:id on B, and another is confirmed by an
// elicitation answer that reaches B. Needs PostgreSQL (skipped without it locally, required under CI).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminAuthHeaders } from './support/auth';
import { freshDatabase, startServer, stop, waitHealthy } from './support/instances';
import { mcpClient, mcpRun, resultText } from './support/mcp-client';
import { uniqueMarker } from './support/runs-api';

const first = Number(process.env.E2E_MCP_MULTI_PORT ?? Number(process.env.E2E_PORT ?? 3100) + 20);
const baseA = `http://127.0.0.1:${first}`;
const baseB = `http://127.0.0.1:${first + 1}`;

/** The balancer: initialize and tools/call go to A, every other request (answers included) to B. */
const spread = (url: string | URL, init?: RequestInit) => {
  const target = new URL(url.toString());
  const base = typeof init?.body === 'string' && /"method":"(initialize|tools\/call)"/.test(init.body) ? baseA : baseB;
  return fetch(new URL(target.pathname + target.search, base), init);
};

test.describe.serial('the MCP server on two instances on one PostgreSQL', () => {
  let a: ChildProcess | undefined;
  let b: ChildProcess | undefined;
  let workspace = '';

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const database = freshDatabase(`postgres://gatehouse:gatehouse@127.0.0.1:5432/gatehouse_e2e_mcp_${first}`);
    if (!database.url) {
      if (process.env.CI) throw new Error(`PostgreSQL is required under CI: ${database.reason}`);
      test.skip(true, `PostgreSQL is not available: ${database.reason}`);
      return;
    }
    workspace = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-mcp-multi-ws-'));
    const common = { DATABASE_URL: database.url, GATEHOUSE_WORKSPACE: workspace };
    a = startServer(first, {
      ...common,
      GATEHOUSE_INSTANCE_ID: 'mcp-a',
      GATEHOUSE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'gatehouse-mcp-a-')),
    });
    b = startServer(first + 1, {
      ...common,
      GATEHOUSE_INSTANCE_ID: 'mcp-b',
      GATEHOUSE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'gatehouse-mcp-b-')),
    });
    await Promise.all([waitHealthy(baseA, a), waitHealthy(baseB, b)]);
  });

  test.afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
  });

  test('a session opened on A works on B; a call held on A is approved on B and runs once', async () => {
    const marker = uniqueMarker('mcp-multi');
    const client = await mcpClient(baseA, marker, { fetch: spread });
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('write_file');
    const call = client.callTool({ name: 'write_file', arguments: { path: `${marker}.txt`, content: 'once' } });
    const run = await mcpRun(baseB, marker, adminAuthHeaders());
    let relay: { id: string; sessionId: string } | undefined;
    await expect
      .poll(async () => {
        const body = await (await fetch(`${baseB}/api/runs/${run.id}`, { headers: adminAuthHeaders() })).json();
        relay = body.pendingRelays?.[0];
        return relay !== undefined;
      })
      .toBe(true);
    const decided = await fetch(`${baseB}/api/chat/relay/${relay!.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...adminAuthHeaders() },
      body: JSON.stringify({ sessionId: relay!.sessionId, response: { approved: true } }),
    });
    expect(decided.status).toBe(200);
    const result = await call;
    expect(resultText(result)).toContain(`Created ${marker}.txt`);
    expect(readFileSync(path.join(workspace, `${marker}.txt`), 'utf8')).toBe('once');
    await client.close();
  });

  test('an elicitation sent from A is answered through B and decides the call held on A', async () => {
    const marker = uniqueMarker('mcp-multi-elicit');
    const client = await mcpClient(baseA, marker, { fetch: spread, elicit: () => ({ action: 'accept' }) });
    const result = await client.callTool({ name: 'write_file', arguments: { path: `${marker}.txt`, content: 'e' } });
    expect(resultText(result)).toContain(`Created ${marker}.txt`);
    expect(readFileSync(path.join(workspace, `${marker}.txt`), 'utf8')).toBe('e');
    await client.close();
  });
});
