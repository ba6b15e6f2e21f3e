// A call that needs two approvers, edited by the first: what runs is the edited call, so that is
// what the second approver must be shown wherever they decide it: the dialog's headline (the
// sentence read first), the inbox and the approval page. Showing the agent's original there lets
// one approver swap the command under the other's approval, which the quorum exists to prevent.
import { expect, test, type Browser } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { signedInBrowsers } from './support/signed-in-browsers';
import { randomSuffix } from './support/access-principals';
import { addRules, removeRules } from './support/policy-api';

const PASSWORD = 'quorum-shown-password-1';
const suffix = randomSuffix();
const people = { ann: `shown-ann-${suffix}`, ben: `shown-ben-${suffix}` } as const;
const mark = `e2e-shown-${suffix}`;
const browsers = signedInBrowsers(PASSWORD);

test.beforeAll(async ({ request }) => {
  for (const username of Object.values(people)) {
    const response = await request.post('/api/users', { data: { username, role: 'approver', password: PASSWORD } });
    expect(response.status(), await response.text()).toBe(201);
  }
  await addRules(request, {
    id: `${mark}-two`,
    action: 'ask',
    tool: 'bash',
    params: { command: `echo ${mark}-deploy*` },
    approvals: { count: 2 },
  });
});

test.afterAll(async ({ request }) => {
  await browsers.close();
  await removeRules(request, mark);
});

/** A page signed in as one of this spec's people. */
const signInAs = (browser: Browser, baseURL: string, who: keyof typeof people) =>
  browsers.as(browser, baseURL, people[who]);

/** Ann asks for `echo <mark>-deploy-<name>`, edits it to `-swapped-<name>` and approves the edit: 1 of 2. */
async function annEdits(browser: Browser, baseURL: string, name: string): Promise<string> {
  const ann = new ChatPage(await signInAs(browser, baseURL, 'ann'));
  await ann.goto();
  const runId = await ann.say(`$ echo ${mark}-deploy-${name}`);
  await ann.expectDialogFor(`${mark}-deploy-${name}`);
  await ann.dialog.getByRole('button', { name: 'Edit', exact: true }).click();
  await ann.dialog.getByRole('textbox', { name: 'Command', exact: true }).fill(`echo ${mark}-deploy-swapped-${name}`);
  await expect(ann.dialog.getByText('The edited call passes the policy')).toBeVisible();
  await ann.expectArmed();
  await ann.dialog.getByRole('button', { name: 'Approve Edited' }).click();
  await expect(ann.dialog.getByText(`1 of 2 approvals: ${people.ann}`)).toBeVisible();
  return runId;
}

test('the second approver’s dialog headline names the edited command, the one that runs', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const runId = await annEdits(browser, baseURL!, 'dialog');

  const ben = new ChatPage(await signInAs(browser, baseURL!, 'ben'));
  await ben.goto(runId);
  await expect(ben.dialog.getByText(`1 of 2 approvals: ${people.ann}`)).toBeVisible();
  await expect(ben.dialogParams()).toContainText(`${mark}-deploy-swapped-dialog`);
  await expect(ben.dialog).toHaveAccessibleDescription(new RegExp(`wants to run echo ${mark}-deploy-swapped-dialog`));
  await ben.expectArmed();
  await ben.approveOnce.click();
  const card = ben.toolCall('bash', `${mark}-deploy-dialog`);
  await ben.expectCallStatus(card, 'done');
  // The output (after the note that the call was edited) is the edited command's.
  await expect(card.getByLabel('Output', { exact: true })).toContainText('The result below is of the edited call.');
  expect(await card.getByLabel('Output', { exact: true }).textContent()).toMatch(
    new RegExp(`\\n${mark}-deploy-swapped-dialog\\n?$`),
  );
});

test('the inbox and the approval page show the edited command to the second approver', async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  await annEdits(browser, baseURL!, 'inbox');

  const ben = await signInAs(browser, baseURL!, 'ben');
  await ben.goto('/approvals');
  const item = ben
    .getByRole('list', { name: 'Pending approvals' })
    .getByRole('listitem')
    .filter({ hasText: `${mark}-deploy-` });
  await expect(item).toBeVisible();
  // The summary line, read before anything is expanded, already names the call that would run.
  await expect(item).toContainText(`${mark}-deploy-swapped-inbox`);
  await item.getByRole('button', { name: 'Details and decision' }).click();
  await expect(item.getByLabel('Parameters', { exact: true })).toContainText(`${mark}-deploy-swapped-inbox`);

  await item.getByRole('link', { name: 'Open its own page' }).click();
  await expect(ben.getByLabel('Parameters', { exact: true })).toContainText(`${mark}-deploy-swapped-inbox`);
  await ben.getByRole('button', { name: 'Deny' }).click();
  await expect(ben.getByText('Denied. The agent is told why.')).toBeVisible();
});
