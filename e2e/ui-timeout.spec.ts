// An approval with a deadline: a policy ask rule with `timeoutS: 2` (scoped to this spec's
// command, removed afterwards) lets the approval expire; the card shows expired, the dialog
// leaves with a "Timed out" notice.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { addRules, marker as newMarker, removeRules } from './support/policy-api';

test('timeout: an unanswered approval expires and the card says so', async ({ page, request }) => {
  const mark = `ui-timeout-${newMarker()}`;
  await addRules(request, { id: mark, action: 'ask', tool: 'bash', params: { command: `echo ${mark}` }, timeoutS: 2 });
  try {
    const chat = new ChatPage(page);
    await chat.goto();
    await chat.say(`$ echo ${mark}`);
    await chat.expectDialogFor(mark);
    await expect(chat.dialog.getByText(/Expires in \d+ s/)).toBeVisible();

    await expect(chat.dialog).toBeHidden({ timeout: 10_000 });
    await expect(page.getByRole('status').filter({ hasText: 'Timed out' })).toBeVisible();
    const card = chat.toolCall('bash', mark);
    await chat.expectCallStatus(card, 'expired');
    await expect(card.getByText('Approval timeout')).toBeVisible();
    await expect(chat.reply(/bash: Tool execution denied: Approval timeout/)).toBeVisible();
  } finally {
    await removeRules(request, mark);
  }
});
