// The same run open in two tabs: answered in one, the approval leaves the other with a notice,
// and both show the result.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';

test('two tabs: approved in one, gone from the other with a notice', async ({ page, context }) => {
  const first = new ChatPage(page);
  const marker = uniqueMarker('two-tabs');
  await first.goto();
  const runId = await first.say(`$ echo ${marker}`);
  await first.expectDialogFor(marker);

  const second = new ChatPage(await context.newPage());
  await second.goto(runId);
  await second.expectDialogFor(marker);

  await second.approveOnce.click();
  await expect(second.dialog).toBeHidden();

  await expect(first.dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Approved elsewhere by admin' })).toBeVisible();
  for (const chat of [first, second]) {
    await first.expectCallStatus(chat.toolCall('bash', marker), 'done');
    await expect(chat.reply(`bash: ${marker}`)).toBeVisible();
  }
  await expect(second.page.getByText(/Approved elsewhere/)).toHaveCount(0);
});

test('two tabs: a decision that loses the race (409) leaves with a notice, not an error', async ({ page, context }) => {
  const first = new ChatPage(page);
  const marker = uniqueMarker('two-tabs-409');
  await first.goto();
  const runId = await first.say(`$ echo ${marker}`);
  await first.expectDialogFor(marker);

  // The second tab restores the pending approval from GET /api/runs/:id, but hears no events,
  // so it still offers the approval after the first tab has answered it.
  const second = new ChatPage(await context.newPage());
  await second.page.route('**/api/runs/*/events', (route) => route.abort());
  await second.goto(runId);
  await second.expectDialogFor(marker);

  await first.reason.fill('first tab says no');
  await first.deny.click();
  await first.expectCallStatus(first.toolCall('bash', marker), 'denied');

  await second.approveOnce.click();
  await expect(second.dialog).toBeHidden();
  await expect(second.page.getByRole('status').filter({ hasText: 'Denied elsewhere by admin' })).toBeVisible();
  await expect(second.page.getByText(/Could not/)).toHaveCount(0);
});
