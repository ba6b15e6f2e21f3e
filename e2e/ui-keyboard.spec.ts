// Keyboard-only approvals: focus starts in the dialog; Y approves once, A always allows, N and
// Escape deny; letters typed into the Reason field are text, not shortcuts (Escape still denies).
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';

test('keyboard: Y, A, N and Esc decide four queued calls', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('keys');
  await chat.goto();
  await chat.message.fill(`$ echo ${m}-y\n$ printf ${m}-a\n$ echo ${m}-n\n$ echo ${m}-esc`);
  await chat.message.press('Control+Enter');
  await expect(chat.dialog).toBeVisible();
  await expect(chat.queuePosition()).toHaveText('1 of 4');

  // Focus is in the dialog, on its first action.
  await expect(chat.approveOnce).toBeFocused();
  await page.keyboard.press('y');
  await expect(chat.queuePosition()).toHaveText('1 of 3');
  await expect(chat.dialogParams()).toContainText(`printf ${m}-a`);

  await expect(chat.approveOnce).toBeFocused();
  await page.keyboard.press('a');
  await expect(chat.queuePosition()).toHaveText('1 of 2');

  // Typing in the Reason field: letters are text; N (outside it) denies.
  await chat.reason.focus();
  await page.keyboard.type('nay');
  await expect(chat.reason).toHaveValue('nay');
  await expect(chat.queuePosition()).toHaveText('1 of 2');
  await chat.approveOnce.focus();
  await page.keyboard.press('n');
  await expect(chat.queuePosition()).toHaveText('1 of 1');
  await expect(chat.dialogParams()).toContainText(`${m}-esc`);

  // Escape denies even from the Reason field.
  await chat.reason.focus();
  await page.keyboard.type('esc reason');
  await page.keyboard.press('Escape');
  await expect(chat.dialog).toBeHidden();

  await chat.expectCallStatus(chat.toolCall('bash', `${m}-y`), 'done');
  await chat.expectCallStatus(chat.toolCall('bash', `printf ${m}-a`), 'done');
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-n`), 'denied');
  await expect(chat.toolCall('bash', `${m}-n`).getByText('nay')).toBeVisible();
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-esc`), 'denied');
  await expect(chat.toolCall('bash', `${m}-esc`).getByText('esc reason')).toBeVisible();
  // Focus comes back to the page, on the message box.
  await expect(chat.message).toBeFocused();
});
