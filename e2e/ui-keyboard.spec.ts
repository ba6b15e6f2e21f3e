// Keyboard-only approvals: the message is typed and sent from the keyboard; focus starts in the
// dialog on Approve Once, Tab and Shift+Tab move between its controls (the Reason field, the
// actions), Y approves once, A always allows, N and Escape deny; letters typed into the Reason
// field are text, not shortcuts (Escape still denies). No control is focused or clicked by script.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { tabTo } from './support/keyboard';
import { uniqueMarker } from './support/runs-api';

test('keyboard only: Tab reaches the dialog’s controls; Y, A, N and Esc decide four queued calls', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('keys');
  await chat.goto();
  await tabTo(page, chat.message);
  await page.keyboard.insertText(`$ echo ${m}-y\n$ printf ${m}-a\n$ echo ${m}-n\n$ echo ${m}-esc`);
  await page.keyboard.press('Control+Enter');
  await expect(chat.dialog).toBeVisible();
  await expect(chat.queuePosition()).toHaveText('1 of 4');

  // Focus is in the dialog, on its first action.
  await expect(chat.approveOnce).toBeFocused();
  await page.keyboard.press('y');
  await expect(chat.queuePosition()).toHaveText('1 of 3');
  await expect(chat.dialogParams()).toContainText(`printf ${m}-a`);

  // The next call's dialog starts on its first action again; Tab moves along the actions.
  await expect(chat.approveOnce).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(chat.alwaysAllow).toBeFocused();
  await page.keyboard.press('a');
  await expect(chat.queuePosition()).toHaveText('1 of 2');
  await expect(chat.dialogParams()).toContainText(`echo ${m}-n`);

  // Shift+Tab from the actions reaches the Reason field: letters typed there are text; Tab back
  // to the actions, where N denies with that reason.
  await expect(chat.approveOnce).toBeFocused();
  await tabTo(page, chat.reason, { backwards: true });
  await page.keyboard.type('nay');
  await expect(chat.reason).toHaveValue('nay');
  await expect(chat.queuePosition()).toHaveText('1 of 2');
  await tabTo(page, chat.deny);
  await page.keyboard.press('n');
  await expect(chat.queuePosition()).toHaveText('1 of 1');
  await expect(chat.dialogParams()).toContainText(`${m}-esc`);

  // Escape denies even from the Reason field.
  await expect(chat.approveOnce).toBeFocused();
  await tabTo(page, chat.reason, { backwards: true });
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
