// A Claude Code hook call that asks is a run like any other: listed on the Runs page (named after
// its cwd, waiting for approval), opened as its transcript with the approval dialog (a diff for a
// Write), and decided there while the hook request is held; the answer is Claude Code's hook output.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { RunsPage } from './pages/runs-page';
import { hookCall, uniqueMarker } from './support/runs-api';

test('a held Claude Code call is approved from the Runs page with its diff, and a deny reason reaches Claude', async ({
  page,
  baseURL,
}) => {
  const marker = uniqueMarker('hook');
  const cwd = `/tmp/${marker}`;
  const session = { session_id: marker, cwd, permission_mode: 'default', hook_event_name: 'PreToolUse' };
  const write = hookCall(baseURL!, {
    ...session,
    tool_name: 'Write',
    tool_input: { file_path: 'notes.md', content: 'first line\nsecond line\n' },
    tool_use_id: `${marker}-1`,
  });

  const runs = new RunsPage(page);
  await runs.goto();
  await expect(runs.row(cwd)).toBeVisible({ timeout: 15_000 });
  await runs.expectStatus(cwd, 'waiting for approval');
  await runs.transcriptLink(cwd).click();

  const chat = new ChatPage(page);
  await expect(chat.dialog).toBeVisible();
  await expect(chat.dialog).toContainText('write_file');
  await expect(chat.dialog).toContainText(`${cwd}/notes.md`);
  await expect(chat.dialog).toContainText('second line');
  await expect(chat.approveOnce).toBeEnabled({ timeout: 5_000 });
  await chat.approveOnce.click();
  const approved = await write;
  expect(approved.status).toBe(200);
  expect(approved.body.hookSpecificOutput).toMatchObject({ hookEventName: 'PreToolUse', permissionDecision: 'allow' });

  const bash = hookCall(baseURL!, {
    ...session,
    tool_name: 'Bash',
    tool_input: { command: `touch ${marker}.txt` },
    tool_use_id: `${marker}-2`,
  });
  await expect(chat.dialog).toBeVisible({ timeout: 15_000 });
  await expect(chat.dialog).toContainText(`touch ${marker}.txt`);
  // Claude Code takes back an edited command: Edit is offered.
  await expect(chat.dialog.getByRole('button', { name: 'Edit', exact: true })).toBeVisible();
  await chat.reason.fill('use the scratch folder');
  await expect(chat.deny).toBeEnabled({ timeout: 5_000 });
  await chat.deny.click();
  const denied = await bash;
  expect(denied.body.hookSpecificOutput).toMatchObject({
    permissionDecision: 'deny',
    permissionDecisionReason: 'use the scratch folder',
  });

  // A Read outside the project asks; Claude Code can run no edit of it, so none is offered.
  const read = hookCall(baseURL!, {
    ...session,
    tool_name: 'Read',
    tool_input: { file_path: `/tmp/elsewhere-${marker}/notes.md` },
    tool_use_id: `${marker}-3`,
  });
  await expect(chat.dialog).toBeVisible({ timeout: 15_000 });
  await expect(chat.dialog).toContainText(`elsewhere-${marker}`);
  await expect(chat.dialog.getByRole('button', { name: 'Deny' })).toBeVisible();
  await expect(chat.dialog.getByRole('button', { name: 'Edit', exact: true })).toHaveCount(0);
  await expect(chat.deny).toBeEnabled({ timeout: 5_000 });
  await chat.deny.click();
  expect((await read).body.hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });
});
