// Keyboard-only approvals: the message is typed and sent from the keyboard; focus starts in the
// dialog on its headline (not on a button that approves, so a stray Enter decides nothing); Tab
// and Shift+Tab move between its controls; once the dialog is armed, Y approves once, A always
// allows, N denies with the reason typed so far; letters typed into the Reason field are text,
// and Enter there denies with it. Escape closes the dialog without deciding: the call stays
// pending, and the banner's Review reopens it. No control is focused or clicked by script.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { tabTo } from './support/keyboard';
import { uniqueMarker } from './support/runs-api';

test('keyboard only: Y, A, N and Enter in the Reason field decide four queued calls; Esc closes without deciding', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('keys');
  await chat.goto();
  await tabTo(page, chat.message);
  await page.keyboard.insertText(`$ echo ${m}-y\n$ printf ${m}-a\n$ echo ${m}-n\n$ echo ${m}-enter`);
  await page.keyboard.press('Control+Enter');
  await expect(chat.dialog).toBeVisible();
  await expect(chat.queuePosition()).toHaveText('1 of 4');

  // Focus is in the dialog, on no approving button: Enter decides nothing.
  await chat.expectArmed();
  await expect(chat.approveOnce).not.toBeFocused();
  await page.keyboard.press('Enter');
  await expect(chat.queuePosition()).toHaveText('1 of 4');
  await page.keyboard.press('y');
  await expect(chat.queuePosition()).toHaveText('1 of 3');
  await expect(chat.dialogParams()).toContainText(`printf ${m}-a`);

  // Tab reaches Always Allow; A always allows (once the next call's dialog is armed).
  await chat.expectArmed();
  await tabTo(page, chat.alwaysAllow);
  await page.keyboard.press('a');
  await expect(chat.queuePosition()).toHaveText('1 of 2');
  await expect(chat.dialogParams()).toContainText(`echo ${m}-n`);

  // Letters typed in the Reason field are text; from the actions, N denies with that reason.
  await chat.expectArmed();
  await tabTo(page, chat.reason);
  await page.keyboard.type('nay');
  await expect(chat.reason).toHaveValue('nay');
  await expect(chat.queuePosition()).toHaveText('1 of 2');
  await tabTo(page, chat.deny);
  await page.keyboard.press('n');
  await expect(chat.queuePosition()).toHaveText('1 of 1');
  await expect(chat.dialogParams()).toContainText(`${m}-enter`);

  // Escape closes the dialog without deciding: the call stays pending, and the banner reopens it.
  await chat.expectArmed();
  await page.keyboard.press('Escape');
  await expect(chat.dialog).toBeHidden();
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-enter`), 'waiting for approval');
  await expect(chat.pendingBanner()).toContainText('1 call waits for your decision');
  await tabTo(page, chat.pendingBanner().getByRole('button', { name: 'Review' }));
  await page.keyboard.press('Enter');
  await chat.expectDialogFor(`${m}-enter`);

  // Enter in the Reason field denies with the reason.
  await chat.expectArmed();
  await tabTo(page, chat.reason);
  await page.keyboard.type('enter reason');
  await page.keyboard.press('Enter');
  await expect(chat.dialog).toBeHidden();

  await chat.expectCallStatus(chat.toolCall('bash', `${m}-y`), 'done');
  await chat.expectCallStatus(chat.toolCall('bash', `printf ${m}-a`), 'done');
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-n`), 'denied');
  await expect(chat.toolCall('bash', `${m}-n`).getByText('nay')).toBeVisible();
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-enter`), 'denied');
  await expect(chat.toolCall('bash', `${m}-enter`).getByText('enter reason')).toBeVisible();
  // Focus comes back to the page, on the message box.
  await expect(chat.message).toBeFocused();
});

test('no accidental approvals: Y pressed twice within 200 ms approves only the call that was on screen', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('double-y');
  await chat.goto();
  await chat.say(`$ echo ${m}-first\n$ echo ${m}-second\n$ echo ${m}-third`);
  await chat.expectDialogFor(`${m}-first`);
  await chat.expectArmed();

  // Twice in a row (a few ms apart): the second press finds the call already being decided.
  await page.keyboard.press('y');
  await page.keyboard.press('y');
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-first`), 'done');
  await chat.expectDialogFor(`${m}-second`);

  // Again, the second press as soon as the next call is on screen (a tenth of a second later, as
  // a person double-pressing does): that call has just appeared, so the press is ignored.
  await chat.expectArmed();
  const again = Date.now();
  await page.keyboard.press('y');
  await expect(chat.queuePosition()).toHaveText('1 of 1');
  await page.keyboard.press('y');
  // The guarantee holds for any press within ARM_DELAY_MS (500 ms) of the call appearing.
  expect(Date.now() - again).toBeLessThan(500);
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-second`), 'done');
  // Armed again only after a moment: by then the second key press has long been ignored.
  await chat.expectArmed();
  await expect(chat.queuePosition()).toHaveText('1 of 1');
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-third`), 'waiting for approval');
  await chat.deny.click();
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-third`), 'denied');
});
