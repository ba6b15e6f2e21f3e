// What the approval dialog shows beyond the basics: the headline, agent and risk (with the parent
// chain of a subagent's call), the diff of an edit, the "Everyone" scope of Always Allow (stored
// as a global grant), the notice when a new grant covers another pending call, and a long
// parameter shortened on its own while the one after it stays readable.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { adminPrincipal, createUser, randomSuffix, signIn } from './support/access-principals';
import { RunTracker } from './support/access-runs';
import { listGrants, revokeGrant } from './support/grants-api';
import { startRun, uniqueMarker } from './support/runs-api';

/** The headline names the tool and what it wants; then the facts: the agent (with its parents), what the call can do, the time left. */
async function expectFacts(chat: ChatPage, headline: RegExp, agent: string, risk: string | RegExp) {
  await expect(chat.dialog).toHaveAccessibleDescription(headline);
  await expect(chat.dialog.getByRole('term')).toHaveText(['Agent', 'Risk', 'Time left']);
  await expect(chat.dialog.getByRole('definition')).toHaveText([agent, risk, /Expires in \d/]);
}

test('a shell call: the dialog shows the tool, the agent and the risk', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('facts');
  await chat.goto();
  await chat.say(`$ echo ${marker}`);
  await chat.expectDialogFor(`echo ${marker}`);
  await expectFacts(chat, new RegExp(`^bash wants to run echo ${marker}$`), 'main', /shell command/);

  await chat.deny.click();
  await chat.expectCallStatus(chat.toolCall('bash', marker), 'denied');
});

test("someone else's run: the dialog says who started it", async ({ page, playwright, baseURL }) => {
  const chat = new ChatPage(page);
  const admin = await adminPrincipal(playwright, baseURL!);
  const name = `starter-${randomSuffix()}`;
  await createUser(admin, name, 'user', 'starter-password-1');
  const starter = await signIn(playwright, baseURL!, name, 'starter-password-1');
  const runs = new RunTracker();
  try {
    const marker = uniqueMarker('started-by');
    const run = await runs.startWaiting(starter, marker);
    await chat.goto(run.runId);
    await chat.expectDialogFor(marker);
    await expect(chat.dialog.getByRole('term')).toHaveText(['Agent', 'Started by', 'Risk', 'Time left']);
    await expect(chat.dialog.getByRole('definition').nth(1)).toHaveText(name);
  } finally {
    await runs.cleanup(admin);
  }
});

test("a subagent's call: the dialog names the agent and the chain of its parents", async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('subagent');
  await chat.goto();
  await chat.say(`task reviewer: read /tmp/${marker}.txt`);

  // First the main agent's `task` call itself (read-only, asked by the risk default).
  await chat.expectDialogFor(marker);
  await expectFacts(chat, /^task wants to hand a task to reviewer$/, 'main', /subagent/);
  await chat.approveOnce.click();

  // Then the reviewer's read outside the workspace, which no allow rule covers.
  await expectFacts(
    chat,
    new RegExp(`^read_file wants to read /tmp/${marker}\\.txt$`),
    'reviewer (subagent of main)',
    'Reads a file',
  );
  await expect(chat.dialogParams()).toContainText(`/tmp/${marker}.txt`);
  await chat.reason.fill(`not outside the workspace ${marker}`);
  await chat.deny.click();
  await expect(chat.dialog).toBeHidden();
  await chat.expectCallStatus(chat.toolCall('read_file', marker), 'denied');
  await expect(chat.status).toContainText('Done');
});

test('an edit: the dialog shows the diff of the change, with its - and + lines', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('edit');
  const file = `${marker}.txt`;
  await chat.goto();
  await chat.say(`write ${file}: alpha\\nbeta\\ngamma`);
  await chat.expectDialogFor(file);
  await chat.approveOnce.click();
  await chat.expectCallStatus(chat.toolCall('write_file', marker), 'done');
  await expect(chat.status).toContainText('Done');

  await chat.message.fill(`edit ${file}: beta => BETA`);
  await chat.send.click();
  await chat.expectDialogFor('BETA');
  await expectFacts(chat, new RegExp(`^edit_file wants to change ${marker}\\.txt$`), 'main', 'Changes a file');
  await expect(chat.dialog.getByText(`Changes to ${file}: 1 line added, 1 removed`)).toBeVisible();
  const diff = chat.dialog.getByLabel(`Diff of ${file}`);
  await expect(diff).toContainText('-beta');
  await expect(diff).toContainText('+BETA');
  await expect(diff).toContainText(' alpha');
  await chat.approveOnce.click();
  await chat.expectCallStatus(chat.toolCall('edit_file', marker), 'done');
  await expect(chat.reply(`edit_file: Edited ${file}.`)).toBeVisible();
});

test('Always Allow for everyone: the grant is stored as global and covers a call of another session', async ({
  page,
  request,
  baseURL,
}) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('global');
  const command = `echo ${marker}`;
  await chat.goto();
  await chat.say(`$ ${command}`);
  await chat.expectDialogFor(command);

  // Exactly this command, so the grant touches no other spec's calls on the shared server.
  await chat.dialog.getByRole('textbox', { name: 'command pattern' }).fill(command);
  await chat.dialog.getByRole('radio', { name: 'Everyone' }).check();
  await expect(chat.dialog.getByRole('radio', { name: 'This session' })).not.toBeChecked();
  await chat.alwaysAllow.click();
  await expect(chat.dialog).toBeHidden();
  await chat.expectCallStatus(chat.toolCall('bash', marker), 'done');

  const mine = (await listGrants(request)).filter((g) => g.rule.params?.command === command);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({ scope: 'global', sessionId: null, rule: { action: 'allow', tool: 'bash' } });

  // A new session (through the API) runs the same call without asking.
  const other = await startRun(baseURL!, `$ ${command}`);
  expect(other.sessionId).not.toBe(await chat.sessionId());
  const events = await other.events.rest();
  expect(events.map((e) => e.event)).not.toContain('relay');
  expect(events.at(-1)?.event).toBe('done');
  expect(events.find((e) => e.event === 'tool_result')?.data).toMatchObject({
    name: 'bash',
    output: expect.stringContaining(marker),
    denied: false,
  });

  await revokeGrant(request, mine[0]!.id);
});

test('a pending call covered by a new Always Allow grant leaves the queue with a notice', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('covered');
  await chat.goto();
  await chat.say(`$ echo ${marker}-one\n$ echo ${marker}-two\n$ printf ${marker}-three`);
  await chat.expectDialogFor(`echo ${marker}-one`);
  await expect(chat.queuePosition()).toHaveText('1 of 3');

  // The edited rule covers the second call too, but not the third (printf).
  await chat.dialog.getByRole('textbox', { name: 'command pattern' }).fill(`echo ${marker}-*`);
  await chat.alwaysAllow.click();

  await expect(chat.dialog.getByRole('status').filter({ hasText: 'Covered by an Always Allow rule' })).toBeVisible();
  await expect(chat.queuePosition()).toHaveText('1 of 1');
  await expect(chat.dialogParams()).toContainText(`printf ${marker}-three`);
  await chat.expectCallStatus(chat.toolCall('bash', `${marker}-one`), 'done');
  await chat.expectCallStatus(chat.toolCall('bash', `${marker}-two`), 'done');

  await chat.deny.click();
  await expect(chat.dialog).toBeHidden();
  await chat.expectCallStatus(chat.toolCall('bash', `${marker}-three`), 'denied');
  // The notice stays on the page once the dialog has closed, until it is dismissed.
  const notice = page.getByRole('status').filter({ hasText: 'Covered by an Always Allow rule' });
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
});

test('a long parameter is shortened on its own: the short one after it stays visible, and "Show all" reveals the rest', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('long-param');
  const long = `head-${marker} ${'lorem ipsum dolor '.repeat(40)}tail-${marker}`;
  await chat.goto();
  await chat.say(`edit ${marker}.txt: ${long} => short-${marker}`);
  await chat.expectDialogFor(`head-${marker}`);

  const params = chat.dialogParams();
  await expect(params).toContainText(`"new": "short-${marker}"`);
  await expect(params).toContainText(`"path": "${marker}.txt"`);
  await expect(params).not.toContainText(`tail-${marker}`);
  // Copying the parameters gives the JSON alone, not the toggle's label.
  const selected = await params.evaluate((pre) => {
    const selection = window.getSelection()!;
    selection.selectAllChildren(pre);
    return selection.toString();
  });
  expect(selected).toContain(`"new": "short-${marker}"`);
  expect(selected).not.toContain('Show all');

  const showAll = params.getByRole('button', { name: /^Show all of old \([\d,.\s]+ characters\)$/ });
  await expect(showAll).toHaveAttribute('aria-expanded', 'false');
  await showAll.click();
  await expect(params).toContainText(`tail-${marker}`);
  await expect(params).toContainText(`"new": "short-${marker}"`);
  const showLess = params.getByRole('button', { name: 'Show less of old' });
  await expect(showLess).toHaveAttribute('aria-expanded', 'true');
  await showLess.click();
  await expect(params).not.toContainText(`tail-${marker}`);

  await chat.deny.click();
  await chat.expectCallStatus(chat.toolCall('edit_file', marker), 'denied');
});
