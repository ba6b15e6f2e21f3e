// Three parallel calls of one step queue up in the dialog, oldest first ("1 of 3"). Answered
// out of order through the queue (the third, then the first, then the second), each card gets
// its own outcome and the reply still lists the results in call order.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';

test('parallel calls: a queue of three answered out of order', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('parallel');
  await chat.goto();
  await chat.say(`$ echo ${m}-one\n$ echo ${m}-two\n$ echo ${m}-three`);

  await expect(chat.dialog).toBeVisible();
  await expect(chat.queuePosition()).toHaveText('1 of 3');
  await expect(chat.dialogParams()).toContainText(`${m}-one`);
  await expect(chat.toolCall('bash')).toHaveCount(3);

  // The third first.
  await chat.dialog.getByRole('button', { name: 'Next' }).click();
  await expect(chat.queuePosition()).toHaveText('2 of 3');
  await chat.dialog.getByRole('button', { name: 'Next' }).click();
  await expect(chat.queuePosition()).toHaveText('3 of 3');
  await expect(chat.dialogParams()).toContainText(`${m}-three`);
  await chat.approveOnce.click();

  // Back to the oldest: the first, denied.
  await expect(chat.queuePosition()).toHaveText('1 of 2');
  await expect(chat.dialogParams()).toContainText(`${m}-one`);
  await chat.reason.fill(`not one ${m}`);
  await chat.deny.click();

  await expect(chat.queuePosition()).toHaveText('1 of 1');
  await expect(chat.dialogParams()).toContainText(`${m}-two`);
  await chat.approveOnce.click();
  await expect(chat.dialog).toBeHidden();

  await chat.expectCallStatus(chat.toolCall('bash', `${m}-one`), 'denied');
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-two`), 'done');
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-three`), 'done');
  const reply = chat.conversation.getByText(new RegExp(`not one ${m}[\\s\\S]*bash: ${m}-two\\s+bash: ${m}-three`));
  await expect(reply).toBeVisible();
});
