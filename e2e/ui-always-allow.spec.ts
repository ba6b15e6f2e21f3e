// Always Allow with an edited rule: the rule the dialog shows (as edited) is exactly the grant
// the server stores for the session, and the next matching call runs without asking. Always Allow
// is offered only when the grant would cover the very call (not for a redirection, not under an
// ask rule: the dialog says why), and an admin's inline edit is re-checked live.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { listGrants } from './support/grants-api';
import { addRules, removeRules } from './support/policy-api';
import { uniqueMarker } from './support/runs-api';

test('always allow: the edited rule is the stored grant, and the next matching call runs without a modal', async ({
  page,
}) => {
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
  const items = (
    (await grants.json()) as {
      items: Array<{
        sessionId: string | null;
        rule: { action: string; tool: string; params?: Record<string, string> };
      }>;
    }
  ).items;
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

test('always allow is not offered for a redirection: no command rule covers it, and the dialog says why', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('redirect');
  await chat.goto();
  await chat.say(`$ echo hi > ${marker}.txt`);
  await chat.expectDialogFor(`${marker}.txt`);

  await expect(chat.dialog.getByText('Always Allow is not offered')).toBeVisible();
  await expect(chat.dialog.getByText(/redirects output to a file/).first()).toBeVisible();
  await expect(chat.alwaysAllow).toHaveCount(0);
  // A (the key) does nothing here; Approve Once still approves just this call.
  await chat.expectArmed();
  await page.keyboard.press('a');
  await expect(chat.dialog).toBeVisible();
  await chat.approveOnce.click();
  await chat.expectCallStatus(chat.toolCall('bash', marker), 'done');
  expect((await listGrants(page.request)).filter((g) => JSON.stringify(g.rule).includes(marker))).toEqual([]);
});

test('always allow is not offered under an ask rule: the dialog names the rule and, for an admin, links to it', async ({
  page,
  request,
}) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('ask-rule');
  const id = `ask-${marker}`;
  const { policy } = await addRules(request, {
    id,
    action: 'ask',
    tool: 'bash',
    params: { command: `echo ${marker} *` },
  });
  const number = policy.rules.findIndex((r) => r.id === id) + 1;
  try {
    await chat.goto();
    await chat.say(`$ echo ${marker} now`);
    await chat.expectDialogFor(marker);
    await expect(chat.dialog.getByText('Always Allow is not offered')).toBeVisible();
    await expect(
      chat.dialog.getByText(`The policy's rule #${number} (${id}) asks every time, whatever is granted.`),
    ).toBeVisible();
    await expect(
      chat.dialog.getByRole('link', { name: `Change rule #${number} (${id}) on the Rules page` }),
    ).toHaveAttribute('href', '/rules');
    await expect(chat.alwaysAllow).toHaveCount(0);
    await chat.deny.click();
    await chat.expectCallStatus(chat.toolCall('bash', marker), 'denied');
  } finally {
    await removeRules(request, marker);
  }
});

test('an admin’s inline edit is re-checked live: a pattern that misses the call is refused, one that covers it is granted and covers the call', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('inline');
  await chat.goto();
  await chat.say(`$ echo ${marker} first`);
  await chat.expectDialogFor(marker);

  const pattern = chat.dialog.getByRole('textbox', { name: 'command pattern' });
  await pattern.fill(`printf ${marker} *`);
  await expect(chat.dialog.getByText('Always Allow is not offered')).toBeVisible();
  await expect(chat.dialog.getByText(/does not cover this call/)).toBeVisible();
  await expect(chat.alwaysAllow).toHaveCount(0);

  await pattern.fill(`echo ${marker} *`);
  await expect(chat.dialog.getByText('Always Allow is not offered')).toHaveCount(0);
  await chat.alwaysAllow.click();
  await chat.expectCallStatus(chat.toolCall('bash', `${marker} first`), 'done');

  // The grant covers the very same call: it runs again without asking.
  await chat.message.fill(`$ echo ${marker} first`);
  await chat.send.click();
  await expect(chat.toolCall('bash', `${marker} first`)).toHaveCount(2);
  await chat.expectCallStatus(chat.toolCall('bash', `${marker} first`).nth(1), 'done');
  await expect(chat.dialog).toBeHidden();
});
