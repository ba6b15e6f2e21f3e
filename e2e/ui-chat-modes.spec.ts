// Modes explained where they are chosen, the dangerous one guarded: each mode's one-line
// description under the picker, "Don't ask" named for what it does, and Auto-approve confirmed
// before it is switched on, then marked in the status bar.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';

test('Auto-approve is confirmed before it is switched on, and marked in the status bar', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.goto();
  await expect(page.getByText(/^Asks a human before anything the rules do not allow/)).toBeVisible();
  await expect(chat.mode.getByRole('option', { name: "Don't ask (deny what would ask)" })).toHaveCount(1);

  await chat.mode.selectOption({ label: "Don't ask (deny what would ask)" });
  await expect(page.getByText('Never asks: whatever would ask is denied instead.')).toBeVisible();

  const confirm = page.getByRole('dialog', { name: 'Switch to Auto-approve?' });
  await chat.mode.selectOption({ label: 'Auto-approve' });
  await expect(confirm).toBeVisible();
  await expect(chat.status).not.toContainText('Auto-approve');
  await confirm.getByRole('button', { name: "Keep Don't ask (deny what would ask)" }).click();
  await expect(confirm).toBeHidden();
  await expect(chat.mode).toHaveValue('dontAsk');

  await chat.mode.selectOption({ label: 'Auto-approve' });
  await confirm.getByRole('button', { name: 'Switch to Auto-approve' }).click();
  await expect(chat.mode).toHaveValue('bypassPermissions');
  await expect(chat.status).toContainText('Auto-approve');
  await expect(chat.status).toContainText('Calls run without approval');
});
