// "Approve all for this session": the run switches to Auto-approve (the status bar says so),
// the current call is approved, and the next run of the session asks no more for default asks.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';

test('approve all: switches to Auto-approve and approves the current call', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('approve-all');
  await chat.goto();
  await chat.say(`$ echo ${m}-first`);
  await chat.expectDialogFor(`${m}-first`);

  await chat.approveAll.click();
  await expect(chat.dialog).toBeHidden();
  await expect(chat.status).toContainText('Auto-approve');
  await expect(chat.mode).toHaveValue('bypassPermissions');
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-first`), 'done');
  await expect(chat.status).toContainText('Done');

  // The follow-up runs in Auto-approve: a default ask is allowed without a dialog.
  await chat.message.fill(`$ echo ${m}-second`);
  await chat.send.click();
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-second`), 'done');
  await expect(chat.reply(`bash: ${m}-second`)).toBeVisible();
  await expect(chat.dialog).toBeHidden();
});
