// Roles in the browser, on the shared e2e server: people sign in on /login in browsers of their own
// (without the suite's admin header). A `user` gets no access to the rules editor; an approver
// opens a user's waiting run and approves it, the user's chat goes on; the audit names the approver.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { ChatPage } from './pages/chat-page';
import { LoginPage } from './pages/login-page';
import { randomClientIp, randomSuffix } from './support/access-principals';

const PASSWORD = 'roles-password-1';
const suffix = randomSuffix();
const people = { user: `roles-user-${suffix}`, approver: `roles-approver-${suffix}` } as const;
const contexts: BrowserContext[] = [];

test.beforeAll(async ({ request }) => {
  // The default request fixture is the admin (Bearer); a script needs no Origin.
  for (const [role, username] of Object.entries(people)) {
    const response = await request.post('/api/users', { data: { username, role, password: PASSWORD } });
    expect(response.status(), await response.text()).toBe(201);
  }
});

test.afterAll(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** A fresh browser (no admin header, no cookie) signed in on the /login page. */
async function signInAs(browser: Browser, baseURL: string, role: keyof typeof people): Promise<Page> {
  // Its own client address: the login throttle counts per address, and the shared server's is everyone's.
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomClientIp() } });
  contexts.push(context);
  const page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto();
  expect((await login.signIn(people[role], PASSWORD)).status()).toBe(200);
  await page.waitForURL(`${baseURL}/`);
  await login.expectSignedInAs(people[role], role);
  return page;
}

test('a user cannot open the rules editor', async ({ browser, baseURL }) => {
  const page = await signInAs(browser, baseURL!, 'user');
  await page.goto('/rules');
  await expect(page.getByRole('heading', { level: 1, name: 'You do not have access to this page' })).toBeVisible();
  await expect(page.getByText('Your role (user) does not allow it.')).toBeVisible();
});

test("an approver approves a user's waiting call, the user's card finishes, and the audit shows the approver", async ({
  browser,
  baseURL,
  page,
}) => {
  test.setTimeout(60_000);
  const marker = `roles-${randomSuffix()}`;

  const userChat = new ChatPage(await signInAs(browser, baseURL!, 'user'));
  await userChat.goto();
  const runId = await userChat.say(`$ echo ${marker}`);
  const card = userChat.toolCall('bash', marker);
  await userChat.expectDialogFor(`echo ${marker}`);
  await userChat.expectCallStatus(card, 'waiting for approval');

  // The approver, in another browser, opens the user's run and answers the dialog there.
  const approverChat = new ChatPage(await signInAs(browser, baseURL!, 'approver'));
  await approverChat.goto(runId);
  await approverChat.expectDialogFor(`echo ${marker}`);
  await approverChat.approveOnce.click();
  await expect(approverChat.dialog).toBeHidden();

  // The user's own page follows: the dialog goes, the call runs.
  await userChat.expectCallStatus(card, 'done');
  await expect(card.getByLabel('Output', { exact: true })).toHaveText(marker);
  await expect(userChat.dialog).toBeHidden();

  // The admin (the default page is signed in with the admin token) reads who decided.
  const audit = new AuditPage(page);
  await audit.goto();
  await audit.filter({ run: runId, action: 'allow' });
  await expect(audit.rows).toHaveCount(1);
  await expect(audit.cell(audit.rows, 'Who')).toHaveText(people.approver);
  await expect(audit.cell(audit.rows, 'Why')).toHaveText('approved');
});

test('a user’s Always Allow shows the suggested rule read-only, for this session, and grants exactly it', async ({
  browser,
  baseURL,
  page,
}) => {
  test.setTimeout(60_000);
  const marker = `roles-always-${randomSuffix()}`;
  const userChat = new ChatPage(await signInAs(browser, baseURL!, 'user'));
  await userChat.goto();
  await userChat.say(`$ echo ${marker}`);
  await userChat.expectDialogFor(`echo ${marker}`);

  // Nothing to edit and no "Everyone": the server would refuse both from a user (403/422).
  await expect(userChat.dialog.getByRole('textbox', { name: 'command pattern' })).toHaveCount(0);
  await expect(userChat.dialog.getByRole('radio', { name: 'Everyone' })).toHaveCount(0);
  await expect(userChat.dialog.getByText('Applies to this session.')).toBeVisible();
  await expect(userChat.dialog.locator('.rule-editor code').filter({ hasText: 'echo *' })).toBeVisible();
  await userChat.alwaysAllow.click();
  await expect(userChat.dialog).toBeHidden();
  await userChat.expectCallStatus(userChat.toolCall('bash', marker), 'done');

  // The admin sees the grant: the suggested rule, for the user's session, made by the user.
  const sessionId = await userChat.sessionId();
  const grants = await page.request.get(`/api/grants?sessionId=${encodeURIComponent(sessionId)}`);
  const items = (
    (await grants.json()) as {
      items: Array<{
        sessionId: string | null;
        scope: string;
        createdBy: string;
        rule: { tool: string; params?: Record<string, string> };
      }>;
    }
  ).items;
  const mine = items.filter((g) => g.sessionId === sessionId);
  expect(mine).toHaveLength(1);
  expect(mine[0]).toMatchObject({
    scope: 'session',
    createdBy: people.user,
    rule: { tool: 'bash', params: { command: 'echo *' } },
  });
});
