// "Approve this and all later calls (Auto-approve)": confirmed first (saying how many calls it
// approves and which still need their own decision), it switches the run to Auto-approve and
// approves the run's whole queue that Auto-approve allows; a call under an ask rule still asks.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { addRules, removeRules } from './support/policy-api';
import { uniqueMarker } from './support/runs-api';

test('approve all: a queue of three is approved at once, after a confirmation that counts them', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('approve-all');
  await chat.goto();
  await chat.say(`$ echo ${m}-one\n$ echo ${m}-two\n$ printf ${m}-three`);
  await chat.expectDialogFor(`${m}-one`);
  await expect(chat.queuePosition()).toHaveText('1 of 3');

  await chat.approveAll.click();
  const confirm = chat.dialog.getByRole('group', {
    name: /Approve 3 calls waiting in this run and switch it to Auto-approve\?/,
  });
  await expect(confirm).toContainText('ask rule');
  // Focus is on the way back, not on the approving button.
  await expect(confirm.getByRole('button', { name: 'Back' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Approve 3 calls and switch to Auto-approve' }).click();

  await expect(chat.dialog).toBeHidden();
  for (const call of [`echo ${m}-one`, `echo ${m}-two`, `printf ${m}-three`])
    await chat.expectCallStatus(chat.toolCall('bash', call), 'done');
  await expect(chat.status).toContainText('Auto-approve');
  await expect(chat.mode).toHaveValue('bypassPermissions');
  await expect(chat.status).toContainText('Done');

  // The follow-up runs in Auto-approve: a default ask is allowed without a dialog.
  await chat.message.fill(`$ echo ${m}-later`);
  await chat.send.click();
  await chat.expectCallStatus(chat.toolCall('bash', `${m}-later`), 'done');
  await expect(chat.dialog).toBeHidden();
});

test('approve all leaves a call under an ask rule to its own decision, and says so', async ({ page, request }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('approve-all-ask');
  await addRules(request, { id: `ask-${m}`, action: 'ask', tool: 'bash', params: { command: `echo ${m}-gated *` } });
  try {
    await chat.goto();
    await chat.say(`$ echo ${m}-free\n$ echo ${m}-gated x`);
    await chat.expectDialogFor(`${m}-free`);
    await chat.approveAll.click();
    const confirm = chat.dialog.getByRole('group', { name: /Approve 1 call waiting in this run/ });
    await expect(confirm).toContainText('1 call under an ask rule still needs its own decision');
    await confirm.getByRole('button', { name: 'Approve 1 call and switch to Auto-approve' }).click();

    await chat.expectCallStatus(chat.toolCall('bash', `${m}-free`), 'done');
    await chat.expectDialogFor(`${m}-gated x`);
    await expect(chat.queuePosition()).toHaveText('1 of 1');
    // Under an ask rule Auto-approve would still ask: no approve-all for it.
    await expect(chat.approveAll).toHaveCount(0);
    await chat.deny.click();
    await chat.expectCallStatus(chat.toolCall('bash', `${m}-gated`), 'denied');
  } finally {
    await removeRules(request, m);
  }
});
