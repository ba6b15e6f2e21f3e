// /api/mcp offers the upstream MCP servers' tools under their mcp__<server>__<tool> names, behind
// the same gate: a real SDK server over Streamable HTTP, configured through GATEHOUSE_MCP_CONFIG,
// sees an allowed call once and never a denied or declined one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSdkServer, type SdkTestServer } from '@/lib/server/mcp/sdk-server.test-support';
import { ADMIN_TOKEN, apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { setPolicy } from '@/app/api/policy/set-policy.test-support';
import { POST } from './route';

let upstream: SdkTestServer;
beforeAll(async () => {
  upstream = await startSdkServer();
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'gatehouse-mcp-upstream-')), 'mcp.json');
  writeFileSync(file, JSON.stringify({ mcpServers: { sdk: { type: 'http', url: upstream.url } } }));
  process.env.GATEHOUSE_MCP_CONFIG = file;
});
const server = withRouteRuntime('gatehouse-mcp-upstream-');
afterAll(async () => {
  delete process.env.GATEHOUSE_MCP_CONFIG;
  await upstream.close();
});

async function connect(name: string, elicit?: () => ElicitResult) {
  const client = new Client({ name, version: '1' }, { capabilities: elicit ? { elicitation: { form: {} } } : {} });
  if (elicit) client.setRequestHandler(ElicitRequestSchema, async () => elicit());
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/api/mcp'), {
      fetch: async (url, init) => POST(new Request(url, init), noParams),
      requestInit: { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } },
    }),
  );
  return client;
}

describe('/api/mcp with an upstream MCP server', () => {
  it('lists the upstream tool; an allowed call reaches the server once, a denied or declined one never', async () => {
    await setPolicy([
      { action: 'allow', tool: 'mcp__sdk__notes', params: { text: 'ok*' } },
      { action: 'deny', tool: 'mcp__sdk__notes', params: { text: 'secret*' } },
    ]);
    await server.rt().mcp.start();
    const client = await connect('upstream-user', () => ({ action: 'decline' }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('mcp__sdk__notes');
    const allowed = await client.callTool({ name: 'mcp__sdk__notes', arguments: { text: 'ok 1' } });
    expect(allowed.isError).toBeFalsy();
    expect(upstream.calls).toEqual([{ tool: 'notes', args: { text: 'ok 1' } }]);
    const denied = await client.callTool({ name: 'mcp__sdk__notes', arguments: { text: 'secret 1' } });
    expect(denied.isError).toBe(true);
    const declined = await client.callTool({ name: 'mcp__sdk__notes', arguments: { text: 'asked 1' } });
    expect(declined.isError).toBe(true);
    const invalid = await client.callTool({ name: 'mcp__sdk__notes', arguments: { text: 3 } });
    expect(invalid.isError).toBe(true);
    expect(upstream.calls).toHaveLength(1);
  });
});

describe('a retried tools/call (the same request id in the same session)', () => {
  it('runs the upstream tool once: the retry is refused as executed already', async () => {
    await setPolicy([{ action: 'allow', tool: 'mcp__sdk__notes', params: { text: 'ok*' } }]);
    await server.rt().mcp.start();
    const client = await connect('retrying-client');
    const transport = client.transport as StreamableHTTPClientTransport;
    const before = upstream.calls.length;
    const send = async () => {
      const response = await POST(
        apiRequest('POST', '/api/mcp', {
          json: {
            jsonrpc: '2.0',
            id: 'retry-1',
            method: 'tools/call',
            params: { name: 'mcp__sdk__notes', arguments: { text: 'ok retry' } },
          },
          headers: {
            authorization: `Bearer ${ADMIN_TOKEN}`,
            accept: 'application/json, text/event-stream',
            'mcp-session-id': transport.sessionId!,
          },
        }),
        noParams,
      );
      const text = await response.text();
      const json = text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((line) => line.startsWith('data: '))!
            .slice(6);
      return (JSON.parse(json) as { result: { isError?: boolean; content: { text: string }[] } }).result;
    };
    expect((await send()).isError).toBeFalsy();
    const retried = await send();
    expect(retried.isError).toBe(true);
    expect(retried.content[0]!.text).toMatch(/not run again/);
    expect(upstream.calls.slice(before)).toEqual([{ tool: 'notes', args: { text: 'ok retry' } }]);
    await client.close();
  });
});
