// Deny with a reason: the card shows the denial and the agent's reply carries the human's reason.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
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
