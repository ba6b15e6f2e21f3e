// Upstream tools behind the gate, end to end: the agent loop with the offline model's `call` line,
// the real policy engine and server-filesystem over stdio. The check is the server's effect (the
// file it would write): a call the policy denies or a human declines or lets expire never reaches
// it; an approved call runs once.
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent, type AgentRun } from '../../agent';
import type { PolicyInput } from '../../policy';
import { McpCatalog } from './catalog';
import { filesystemStdio, silentLog } from './test-support';

let dir: string;
let catalog: McpCatalog;
beforeAll(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-mcp-fs-')));
  catalog = new McpCatalog({
    servers: [{ name: 'fs', config: filesystemStdio(dir, { paramKinds: { write_file: { path: 'path' } } }) }],
    log: silentLog(),
  });
  await catalog.start();
});
afterAll(async () => {
  await catalog.close();
  await rm(dir, { recursive: true, force: true });
});

async function run(
  policy: PolicyInput,
  line: string,
  answer?: (relay: Extract<AgentEvent, { type: 'relay' }>) => void,
  approvalTimeoutS?: number,
) {
  const agent = createAgent({
    workspace: dir,
    policy,
    tools: catalog.agentTools(),
    ...(approvalTimeoutS ? { approvalTimeoutS } : {}),
  });
  const events: AgentEvent[] = [];
  const invocation: AgentRun = agent.invoke({ messages: [{ role: 'user', content: line }] });
  for await (const event of invocation) {
    events.push(event);
    if (event.type === 'relay') answer?.(event);
  }
  return events.filter((e): e is Extract<AgentEvent, { type: 'tool_result' }> => e.type === 'tool_result');
}

const write = (name: string) =>
  `call mcp__fs__write_file ${JSON.stringify({ path: path.join(dir, name), content: `written ${name}` })}`;
const exists = (name: string) =>
  readFile(path.join(dir, name), 'utf8').then(
    (text) => text,
    () => undefined,
  );

const askWrites: PolicyInput = { riskDefaults: { read_only: 'allow' }, defaultAction: 'ask', rules: [] };

describe('upstream MCP tools behind the gate (server-filesystem over stdio)', () => {
  it('allow: the call reaches the server and its result the model', async () => {
    const [result] = await run({ rules: [{ tool: 'mcp__fs__*', action: 'allow' }] }, write('allowed.txt'));
    expect(result).toMatchObject({ isError: false, denied: false });
    expect(await exists('allowed.txt')).toBe('written allowed.txt');
  });

  it('deny (a glob rule on mcp__fs__*): the server never sees the call', async () => {
    const [result] = await run({ rules: [{ tool: 'mcp__fs__write_*', action: 'deny' }] }, write('denied.txt'));
    expect(result).toMatchObject({ denied: true });
    expect(await exists('denied.txt')).toBeUndefined();
  });

  it('a rule matches a param mapped to the path kind', async () => {
    const [result] = await run(
      {
        rules: [
          { tool: 'mcp__fs__write_file', params: { path: '**/secret*' }, action: 'deny' },
          { tool: 'mcp__fs__*', action: 'allow' },
        ],
      },
      write('secret.txt'),
    );
    expect(result).toMatchObject({ denied: true });
    expect(await exists('secret.txt')).toBeUndefined();
  });

  it('ask, approved: runs exactly once', async () => {
    const [result] = await run(askWrites, write('approved.txt'), (e) => void e.respond({ approved: true }));
    expect(result).toMatchObject({ denied: false });
    expect(await exists('approved.txt')).toBe('written approved.txt');
  });

  it('ask, declined: the server never sees the call', async () => {
    const [result] = await run(
      askWrites,
      write('declined.txt'),
      (e) => void e.respond({ approved: false, reason: 'no' }),
    );
    expect(result).toMatchObject({ denied: true });
    expect(await exists('declined.txt')).toBeUndefined();
  });

  it('ask, expired: the server never sees the call', async () => {
    const [result] = await run(askWrites, write('expired.txt'), undefined, 1);
    expect(result).toMatchObject({ denied: true });
    expect(await exists('expired.txt')).toBeUndefined();
  });

  it('invalid arguments are a tool error before the gate: nothing asks, nothing runs', async () => {
    let asked = false;
    const [result] = await run(askWrites, `call mcp__fs__write_file {"path": 3}`, () => (asked = true));
    expect(result).toMatchObject({ isError: true });
    expect(result?.output).toMatch(/Invalid input for mcp__fs__write_file/);
    expect(asked).toBe(false);
  });
});
