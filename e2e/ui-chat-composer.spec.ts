// The chat behaves like a chat: the composer is focused on arrival, Enter sends and Shift+Enter
// adds a line; the view follows new output, and once the reader scrolls up it stays put and
// offers "Jump to latest".
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { decidePending, uniqueMarker } from './support/runs-api';

test('Enter sends, Shift+Enter adds a line, and the composer is focused on arrival', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('enter');
  await chat.goto();
  await expect(chat.message).toBeFocused();
  await page.keyboard.type('ls .');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type(`read ${m}.txt`);
  await expect(chat.message).toHaveValue(`ls .\nread ${m}.txt`);

  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\?run=[\w-]+$/, { timeout: 15_000 });
  await expect(chat.message).toHaveValue('');
  // Both lines went as one message: one call each.
  await expect(chat.toolCall('list_files')).toHaveCount(1);
  await expect(chat.toolCall('read_file', m)).toHaveCount(1);
  await expect(chat.status).toContainText('Done');
});

test('the view follows new output; scrolled up, it stays put and Jump to latest brings it back', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('follow');
  await page.setViewportSize({ width: 1280, height: 800 });
  await chat.goto();
  // Thirty listings: far more than a screen.
  // Sent with the button, so this test pins following alone.
  await chat.message.fill(Array.from({ length: 30 }, () => 'ls .').join('\n'));
  await chat.send.click();
  // Thirty calls on a busy 2-core machine: more than the default 5 s.
  await expect(chat.status).toContainText('Done', { timeout: 20_000 });
  await expect(chat.toolCall('list_files')).toHaveCount(30);
  // The end of the conversation (the reply after the cards) is on screen without any scrolling.
  await expect(chat.reply(/list_files:/).last()).toBeInViewport();
  await expect(page.getByRole('button', { name: /Jump to latest/ })).toBeHidden();

  // A call that waits for approval, then the reader scrolls up to read while it is decided elsewhere.
  const first = chat.runId();
  await chat.message.fill(`$ echo ${m}`);
  await chat.send.click();
  const second = await chat.newRunAfter(first);
  await expect(chat.toolCall('bash', m)).toBeInViewport();
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await expect(page.getByRole('button', { name: /Jump to latest/ })).toBeVisible();
  await decidePending(page.request, second, { approved: true });
  await chat.expectCallStatus(chat.toolCall('bash', m), 'done');
  await expect(chat.status).toContainText('Done');
  // The new output did not pull the reader down.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await expect(chat.reply(`bash: ${m}`)).not.toBeInViewport();

  await page.getByRole('button', { name: /Jump to latest/ }).click();
  await expect(chat.reply(`bash: ${m}`)).toBeInViewport();
  await expect(page.getByRole('button', { name: /Jump to latest/ })).toBeHidden();
});
