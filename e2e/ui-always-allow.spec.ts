// Always Allow with an edited rule: the rule the dialog shows (as edited) is exactly the grant
// the server stores for the session, and the next matching call runs without asking.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';

test('always allow: the edited rule is the stored grant, and the next matching call runs without a modal', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('always');
  await chat.goto();
  await chat.say(`$ echo ${marker} first`);
  await chat.expectDialogFor(marker);

  const pattern = chat.dialog.getByRole('textbox', { name: 'command pattern' });
  await expect(pattern).toHaveValue('echo *');
  const edited = `echo ${marker} *`;
  await pattern.fill(edited);
  await expect(chat.dialog.getByRole('radio', { name: 'This session' })).toBeChecked();
  await chat.alwaysAllow.click();
  await expect(chat.dialog).toBeHidden();
  await chat.expectCallStatus(chat.toolCall('bash', `${marker} first`), 'done');
  await expect(chat.status).toContainText('Done');

  const sessionId = await chat.sessionId();
  const grants = await page.request.get(`/api/grants?sessionId=${encodeURIComponent(sessionId)}`);
  const items = ((await grants.json()) as { items: Array<{ sessionId: string | null; rule: { action: string; tool: string; params?: Record<string, string> } }> }).items;
  const mine = items.filter((g) => g.sessionId === sessionId);
  expect(mine).toHaveLength(1);
  expect(mine[0]!.rule).toMatchObject({ action: 'allow', tool: 'bash', params: { command: edited } });

  // A follow-up in the same session: covered by the grant, so it runs with no dialog.
  await chat.message.fill(`$ echo ${marker} second`);
  await chat.send.click();
  await chat.expectCallStatus(chat.toolCall('bash', `${marker} second`), 'done');
  await expect(chat.reply(`bash: ${marker} second`)).toBeVisible();
  await expect(chat.dialog).toBeHidden();
  expect(await chat.sessionId()).toBe(sessionId);
});
