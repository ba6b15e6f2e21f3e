// Gatehouse as an MCP server, against the production build: an MCP client built with the official
// SDK lists the tools, makes an allowed call, a denied one, asking calls answered through
// elicitation (accept and decline), and, without elicitation, a call that waits while a person
// approves it in the browser's approval dialog.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { adminAuthHeaders } from './support/auth';
import { mcpClient, mcpRun, resultText } from './support/mcp-client';
import { uniqueMarker } from './support/runs-api';

test('an SDK client lists the tools; an allowed call runs and a denied one returns the reason', async ({ baseURL }) => {
  const client = await mcpClient(baseURL!, uniqueMarker('mcp-list'));
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(
    expect.arrayContaining(['bash', 'read_file', 'list_files', 'write_file', 'edit_file', 'fetch_url']),
  );
  const listed = await client.callTool({ name: 'list_files', arguments: { path: '.' } });
  expect(listed.isError).toBeFalsy();
  const denied = await client.callTool({ name: 'bash', arguments: { command: 'sudo ls' } });
  expect(denied.isError).toBe(true);
  expect(resultText(denied)).toContain('Tool execution denied');
  await client.close();
});

test('an asking call is confirmed through elicitation (accept runs it, decline does not)', async ({ baseURL }) => {
  const marker = uniqueMarker('mcp-elicit');
  const prompts: string[] = [];
  const yes = await mcpClient(baseURL!, `${marker}-yes`, {
    elicit: (message) => (prompts.push(message), { action: 'accept' }),
  });
  const accepted = await yes.callTool({ name: 'write_file', arguments: { path: `${marker}.txt`, content: 'yes' } });
  expect(resultText(accepted)).toContain(`Created ${marker}.txt`);
  expect(prompts[0]).toContain(`write_file`);
  const no = await mcpClient(baseURL!, `${marker}-no`, { elicit: () => ({ action: 'decline' }) });
  const declined = await no.callTool({ name: 'write_file', arguments: { path: `${marker}-no.txt`, content: 'no' } });
  expect(declined.isError).toBe(true);
  const readBack = await yes.callTool({ name: 'read_file', arguments: { path: `${marker}-no.txt` } });
  expect(readBack.isError).toBe(true);
  await Promise.all([yes.close(), no.close()]);
});

test('a client without elicitation waits while a person approves the call in the browser', async ({
  page,
  baseURL,
}) => {
  const marker = uniqueMarker('mcp-browser');
  const client = await mcpClient(baseURL!, marker);
  const call = client.callTool({ name: 'write_file', arguments: { path: `${marker}.txt`, content: 'ok' } });
  const run = await mcpRun(baseURL!, marker, adminAuthHeaders());
  const chat = new ChatPage(page);
  await chat.goto(run.id);
  await chat.expectDialogFor(`${marker}.txt`);
  await chat.approveOnce.click();
  await expect(chat.dialog).toBeHidden();
  const result = await call;
  expect(result.isError).toBeFalsy();
  expect(resultText(result)).toContain(`Created ${marker}.txt`);
  await client.close();
});
