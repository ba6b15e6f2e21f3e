// An allowed call is never run unrecorded (over the server's real runtime, embedded PGlite, where
// an allowed call is answered before its record is stored: deferred-records.ts). What a `user`
// token's client controls cannot make that record one the database refuses after the tool ran: a
// request id too long for the claim's index is refused before anything runs; a client name cut
// to length keeps whole characters; a tool output holding a NUL is stored with U+FFFD in its place.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { setPolicy } from '@/app/api/policy/set-policy.test-support';
import { POST } from './route';

const server = withRouteRuntime('gatehouse-mcp-records-');

async function connect(name: string, token: string) {
  const client = new Client({ name, version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL('http://127.0.0.1:3000/api/mcp'), {
    fetch: async (url, init) => POST(new Request(url, init), noParams),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, sessionId: transport.sessionId! };
}

/** One raw tools/call on the session, as any MCP client may send it: its status and JSON-RPC answer. */
async function call(sessionId: string, token: string, id: string | number, name: string, args: object) {
  const response = await POST(
    new Request('http://127.0.0.1:3000/api/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } }),
    }),
    noParams,
  );
  const text = await response.text();
  const json = text.startsWith('{')
    ? text
    : text
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6);
  return {
    status: response.status,
    answer: JSON.parse(json) as { result?: { isError?: boolean }; error?: { code: number; message: string } },
  };
}

/** The session's run once every deferred record is stored: its events and audit rows. */
async function recordsOf(agent: string) {
  const rt = server.rt();
  await rt.external.flushRecords();
  const run = (await rt.q.runs.listRuns({ source: 'mcp' })).items.find((r) => r.agent === agent);
  if (!run) return { run, events: [], audit: 0 };
  const events = await rt.q.events.listEvents({ runId: run.id });
  const audit = (await rt.q.audit.listAudit({})).items.filter((a) => a.runId === run.id).length;
  return { run, events, audit };
}

const written = (file: string) =>
  readFile(path.join(server.rt().config.workspace, file), 'utf8').then(
    () => true,
    () => false,
  );

describe('/api/mcp: an allowed call is never run unrecorded', () => {
  it('a request id longer than 200 characters is refused before the gate; 200 is taken and recorded', async () => {
    await setPolicy([{ action: 'allow', tool: 'write_file' }]);
    const token = await server.tokenFor('user');
    const { sessionId } = await connect('long-id-client', token);
    const refused = await call(sessionId, token, 'x'.repeat(201), 'write_file', { path: 'long.txt', content: 'no' });
    expect(refused.status).toBe(400);
    expect(refused.answer.error).toMatchObject({ code: -32600, message: expect.stringMatching(/longer than 200/) });
    expect(await written('long.txt')).toBe(false);

    const taken = await call(sessionId, token, 'y'.repeat(200), 'write_file', { path: 'at-limit.txt', content: 'ok' });
    expect(taken.answer.result?.isError).toBeFalsy();
    expect(await written('at-limit.txt')).toBe(true);
    const { events, audit } = await recordsOf('long-id-client');
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
    expect(audit).toBeGreaterThan(0);
  });

  it('a client name cut to length keeps whole characters, and its calls are recorded', async () => {
    await setPolicy([{ action: 'allow', tool: 'write_file' }]);
    const token = await server.tokenFor('user');
    // 99 letters and an emoji (two UTF-16 units): a cut at 100 units would keep half of it.
    const { client } = await connect(`${'n'.repeat(99)}\u{1F600}`, token);
    const result = await client.callTool({ name: 'write_file', arguments: { path: 'name.txt', content: 'x' } });
    expect(result.isError).toBeFalsy();
    const { run, events, audit } = await recordsOf('n'.repeat(99));
    expect(run).toBeDefined();
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
    expect(audit).toBeGreaterThan(0);
  });

  it('a tool output holding a NUL is recorded with U+FFFD in its place, with its decision', async () => {
    await setPolicy([{ action: 'allow', tool: 'bash' }]);
    const token = await server.tokenFor('user');
    const { client } = await connect('nul-output-client', token);
    // find -print0, a binary file's bytes: any allowed command may print a NUL.
    const result = await client.callTool({ name: 'bash', arguments: { command: "printf 'a\\000b'; touch nul.txt" } });
    expect(result.isError).toBeFalsy();
    expect(await written('nul.txt')).toBe(true);
    const { events, audit } = await recordsOf('nul-output-client');
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
    expect(String(events[1]!.data.output)).toContain('a\ufffdb');
    expect(audit).toBeGreaterThan(0);
  });
});
