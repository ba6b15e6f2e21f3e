// Deny with a reason: the card shows the denial and the agent's reply carries the human's reason.
// The Reason field is never hidden under the dialog's sticky buttons when focused (even on a
// phone, with a long diff above it), and Enter in it denies with the reason.
import { expect, test, type Locator } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { tabTo } from './support/keyboard';
import { uniqueMarker } from './support/runs-api';

test('deny with a reason: the reason shows on the card and in the reply', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('deny');
  const reason = `not now ${marker}`;
  await chat.goto();
  await chat.say(`$ echo ${marker}`);
  await chat.expectDialogFor(marker);

  await chat.reason.fill(reason);
  await chat.deny.click();
  await expect(chat.dialog).toBeHidden();

  const card = chat.toolCall('bash', marker);
  await chat.expectCallStatus(card, 'denied');
  await expect(card.getByText(reason)).toBeVisible();
  await expect(chat.reply(`bash: Tool execution denied: ${reason}`)).toBeVisible();
});

/** The element drawn at the middle of `field` is the field itself: nothing covers it. */
async function uncovered(field: Locator): Promise<boolean> {
  return field.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2) === el;
  });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the focused Reason field is visible, never under the sticky buttons, and Enter denies with the reason', async ({
    page,
  }) => {
    const chat = new ChatPage(page);
    const marker = uniqueMarker('reason-visible');
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i} ${marker}`).join('\\n');
    await chat.goto();
    await chat.say(`write ${marker}.txt: ${lines}`);
    await chat.expectDialogFor(`${marker}.txt`);
    await chat.expectArmed();

    await tabTo(page, chat.reason);
    await expect(chat.reason).toBeInViewport();
    expect(await uncovered(chat.reason)).toBe(true);
    await page.keyboard.type(`too long ${marker}`);
    await page.keyboard.press('Enter');
    await expect(chat.dialog).toBeHidden();

    const card = chat.toolCall('write_file', marker);
    await chat.expectCallStatus(card, 'denied');
    await expect(card.getByText(`too long ${marker}`)).toBeVisible();
  });
});
