// Smoke test: the production build serves the chat as its home page.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';

test('home page is the chat, with the composer, the pickers and the mode in the status bar', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.goto();
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  await expect(page).toHaveTitle('Chat · Gatehouse');
  await expect(chat.mode).toHaveValue('default');
  await expect(chat.agent).toBeEnabled();
  await expect(chat.status).toContainText('Safe mode');
});
