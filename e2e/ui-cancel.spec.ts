// A live run from the chat: changing the mode applies to it at once (POST /api/runs/:id/mode),
// and Stop (beside the composer) cancels the running call; the run ends cancelled and the composer is free again.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';

test('mode change and cancel while a call runs', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('cancel');
  await chat.goto();
  await chat.say(`$ sleep 30; echo ${m}`);
  await chat.expectDialogFor(m);
  await chat.approveOnce.click();
  await chat.expectCallStatus(chat.toolCall('bash', m), 'running');

  await chat.mode.selectOption({ label: 'Plan' });
  await expect(chat.status).toContainText('Plan');
  const runId = chat.runId();
  await expect
    .poll(
      async () => ((await (await page.request.get(`/api/runs/${runId}`)).json()) as { run: { mode: string } }).run.mode,
    )
    .toBe('plan');

  await chat.cancelRun.click();
  await expect(chat.status).toContainText('Cancelled');
  await expect(chat.cancelRun).toBeHidden();
  await expect(chat.send).toBeDisabled();
  await chat.message.fill('$ echo after');
  await expect(chat.send).toBeEnabled();
});
