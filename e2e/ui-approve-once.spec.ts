// Approve Once from the chat: the call waits in the dialog, runs after approval, its card shows
// the output, and the agent's reply includes it.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';

test('approve once: the card goes from waiting to done with the output, and the reply shows it', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('approve-once');
  await chat.goto();
  await expect(chat.status).toContainText('Safe mode');
  await chat.say(`$ echo ${marker}`);

  const card = chat.toolCall('bash', marker);
  await chat.expectDialogFor(`echo ${marker}`);
  await chat.expectCallStatus(card, 'waiting for approval');
  await expect(chat.dialog.getByText('Why it asks')).toBeVisible();
  await expect(chat.dialog.getByRole('textbox', { name: 'command pattern' })).toHaveValue('echo *');

  await chat.approveOnce.click();
  await expect(chat.dialog).toBeHidden();
  await chat.expectCallStatus(card, 'done');
  await expect(card.getByLabel('Output', { exact: true })).toHaveText(marker);
  await expect(chat.reply(`bash: ${marker}`)).toBeVisible();
  await expect(chat.status).toContainText('Done');
});

test('approve once of a file write: the dialog shows the diff, with +/- lines', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('write');
  await chat.goto();
  await chat.say(`write ${marker}.txt: first line\\nsecond line`);
  await chat.expectDialogFor(`${marker}.txt`);
  await expect(chat.dialog.getByText(`New file ${marker}.txt: 2 lines added, 0 removed`)).toBeVisible();
  const diff = chat.dialog.getByLabel(`Diff of ${marker}.txt`);
  await expect(diff).toContainText('+first line');
  await expect(diff).toContainText('+second line');
  await chat.approveOnce.click();
  await chat.expectCallStatus(chat.toolCall('write_file', marker), 'done');
  await expect(chat.reply(`write_file: Created ${marker}.txt`)).toBeVisible();
});

test('long output is collapsed behind "Show full output"', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('long');
  await chat.goto();
  await chat.say(`$ seq 1001 1040 # ${marker}`);
  await chat.expectDialogFor(marker);
  await chat.approveOnce.click();
  const card = chat.toolCall('bash', marker);
  await chat.expectCallStatus(card, 'done');
  const output = card.getByLabel('Output', { exact: true });
  await expect(output).toContainText('1012');
  await expect(output).not.toContainText('1040');
  const full = card.getByLabel('Full output');
  await expect(full).toBeHidden();
  await card.getByText('Show full output').click();
  await expect(full).toBeVisible();
  await expect(full).toContainText('1040');
});
