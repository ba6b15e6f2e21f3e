// Decisions beyond yes or no, in the browser: Edit a command then approve it (the edited command
// runs once, the reply mentions the edit, the audit has both calls); an edit a deny rule forbids
// is refused and the call stays pending; a file write's content edited with the diff following;
// a rule needing two approvers, decided by two people in two browsers ("1 of 2" on both, the same
// person twice refused, a denial by either ends it, a partial quorum at the deadline expires).
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { signedInBrowsers } from './support/signed-in-browsers';
import { randomSuffix } from './support/access-principals';
import { addRules, removeRules } from './support/policy-api';

const PASSWORD = 'quorum-password-1';
const suffix = randomSuffix();
const people = { ann: `quorum-ann-${suffix}`, ben: `quorum-ben-${suffix}` } as const;
const mark = `e2e-edit-${suffix}`;
const browsers = signedInBrowsers(PASSWORD);

test.beforeAll(async ({ request }) => {
  for (const username of Object.values(people)) {
    const response = await request.post('/api/users', { data: { username, role: 'approver', password: PASSWORD } });
    expect(response.status(), await response.text()).toBe(201);
  }
  await addRules(
    request,
    { id: `${mark}-deny`, action: 'deny', tool: 'bash', params: { command: `echo ${mark}-forbidden*` } },
    {
      id: `${mark}-two`,
      action: 'ask',
      tool: 'bash',
      params: { command: `echo ${mark}-deploy*` },
      approvals: { count: 2 },
    },
    {
      id: `${mark}-two-short`,
      action: 'ask',
      tool: 'bash',
      params: { command: `echo ${mark}-slow*` },
      approvals: { count: 2 },
      timeoutS: 4,
    },
  );
});

test.afterAll(async ({ request }) => {
  await browsers.close();
  await removeRules(request, mark);
});

/** A page signed in as one of this spec's people. */
const signInAs = (browser: Browser, baseURL: string, who: keyof typeof people) =>
  browsers.as(browser, baseURL, people[who]);

const editButton = (chat: ChatPage) => chat.dialog.getByRole('button', { name: 'Edit', exact: true });
const approveEdited = (chat: ChatPage) => chat.dialog.getByRole('button', { name: 'Approve Edited' });
const approvals = (chat: ChatPage, text: string) => chat.dialog.getByText(text);

test('edit a command, then approve: the edited command runs once, the reply mentions the edit, the audit has both', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.goto();
  const runId = await chat.say(`$ echo ${mark}-original`);
  await chat.expectDialogFor(`${mark}-original`);
  await editButton(chat).click();
  await chat.dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(`echo ${mark}-edited`);
  await expect(chat.dialog.getByText('The edited call passes the policy')).toBeVisible();
  await chat.expectArmed();
  await approveEdited(chat).click();
  await expect(chat.dialog).toBeHidden();

  const card = chat.toolCall('bash', `${mark}-original`);
  await chat.expectCallStatus(card, 'done');
  await expect(card.getByLabel('Output', { exact: true })).toContainText(`${mark}-edited`);
  await expect(chat.reply(/^bash: \[The approver edited this call/)).toBeVisible();

  const audit = await page.request.get(`/api/audit?runId=${encodeURIComponent(runId)}`);
  const rows = ((await audit.json()) as { items: { decidedBy?: string; params?: unknown; details?: unknown }[] }).items;
  const human = rows.find((row) => (row.details as { editedParams?: unknown } | undefined)?.editedParams);
  expect(human?.params).toEqual({ command: `echo ${mark}-original` });
  expect(human?.details).toMatchObject({ editedParams: { command: `echo ${mark}-edited` } });
});

test('an edit a deny rule forbids is refused inline, and the call stays pending', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.goto();
  await chat.say(`$ echo ${mark}-keep`);
  await chat.expectDialogFor(`${mark}-keep`);
  await editButton(chat).click();
  await chat.dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(`echo ${mark}-forbidden`);
  await expect(chat.dialog.getByRole('alert')).toContainText('denied');
  await expect(approveEdited(chat)).toBeDisabled();
  await chat.expectCallStatus(chat.toolCall('bash', `${mark}-keep`), 'waiting for approval');
  await chat.dialog.getByRole('button', { name: 'Cancel Edit' }).click();
  await chat.expectArmed();
  await chat.deny.click();
  await chat.expectCallStatus(chat.toolCall('bash', `${mark}-keep`), 'denied');
});

test('edit a file write’s content: the diff follows the edit, and the edited content is written', async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.goto();
  await chat.say(`write ${mark}.txt: first line`);
  await chat.expectDialogFor(`${mark}.txt`);
  await editButton(chat).click();
  await chat.dialog.getByRole('textbox', { name: 'Content', exact: true }).fill('edited line\n');
  const diff = chat.dialog.locator('.approval-edit').getByLabel(`Diff of ${mark}.txt`);
  await expect(diff).toContainText('+edited line');
  await expect(diff).not.toContainText('+first line');
  await chat.expectArmed();
  await approveEdited(chat).click();
  await chat.expectCallStatus(chat.toolCall('write_file', mark), 'done');
  await expect(chat.reply(/^write_file: \[The approver edited this call/)).toBeVisible();
});

test('two approvers in two browsers: 1 of 2 on both, the same person twice refused, the second runs it', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const ann = new ChatPage(await signInAs(browser, baseURL!, 'ann'));
  await ann.goto();
  const runId = await ann.say(`$ echo ${mark}-deploy-one`);
  await ann.expectDialogFor(`${mark}-deploy-one`);
  await expect(approvals(ann, '0 of 2 approvals')).toBeVisible();
  await ann.expectArmed();
  await ann.approveOnce.click();
  await expect(approvals(ann, `1 of 2 approvals: ${people.ann}`)).toBeVisible();
  await expect(ann.approveOnce).toBeDisabled();

  // The same person again, straight to the API: refused, still pending.
  const relayId = await pendingRelay(ann.page, runId);
  const again = await ann.page.request.post(`/api/chat/relay/${relayId}`, {
    headers: { Origin: baseURL! },
    data: { sessionId: await ann.sessionId(), response: { approved: true } },
  });
  expect(again.status()).toBe(409);

  const ben = new ChatPage(await signInAs(browser, baseURL!, 'ben'));
  await ben.goto(runId);
  await ben.expectDialogFor(`${mark}-deploy-one`);
  await expect(approvals(ben, `1 of 2 approvals: ${people.ann}`)).toBeVisible();
  await ben.expectArmed();
  await ben.approveOnce.click();
  const card = ann.toolCall('bash', `${mark}-deploy-one`);
  await ann.expectCallStatus(card, 'done');
  await expect(card.getByLabel('Output', { exact: true })).toHaveText(`${mark}-deploy-one`);
  await expect(ann.dialog).toBeHidden();
});

test('two approvers: a denial by either ends it at once', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const ann = new ChatPage(await signInAs(browser, baseURL!, 'ann'));
  await ann.goto();
  const runId = await ann.say(`$ echo ${mark}-deploy-two`);
  await ann.expectDialogFor(`${mark}-deploy-two`);
  await ann.expectArmed();
  await ann.approveOnce.click();
  await expect(approvals(ann, `1 of 2 approvals: ${people.ann}`)).toBeVisible();
  const ben = new ChatPage(await signInAs(browser, baseURL!, 'ben'));
  await ben.goto(runId);
  await ben.expectDialogFor(`${mark}-deploy-two`);
  await ben.expectArmed();
  await ben.deny.click();
  await ann.expectCallStatus(ann.toolCall('bash', `${mark}-deploy-two`), 'denied');
});

test('a partial quorum at the deadline ends as expired', async ({ browser, baseURL }) => {
  test.setTimeout(60_000);
  const ann = new ChatPage(await signInAs(browser, baseURL!, 'ann'));
  await ann.goto();
  await ann.say(`$ echo ${mark}-slow`);
  await ann.expectDialogFor(`${mark}-slow`);
  await ann.expectArmed();
  await ann.approveOnce.click();
  await expect(approvals(ann, `1 of 2 approvals: ${people.ann}`)).toBeVisible();
  await ann.expectCallStatus(ann.toolCall('bash', `${mark}-slow`), 'expired');
});

async function pendingRelay(page: Page, runId: string): Promise<string> {
  const response = await page.request.get(`/api/runs/${encodeURIComponent(runId)}`);
  const body = (await response.json()) as { pendingRelays?: { id: string }[]; relays?: { id: string }[] };
  const id = (body.pendingRelays ?? body.relays ?? [])[0]?.id;
  expect(id, JSON.stringify(body).slice(0, 500)).toBeTruthy();
  return id!;
}
