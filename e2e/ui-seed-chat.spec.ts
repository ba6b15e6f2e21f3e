// The seed design's React example (components/examples/chat-interface.tsx, on /examples/seed-chat)
// against the built server, in a browser signed in with a password like a person (session cookie,
// same-origin checks), not the suite's admin token: Start streams POST /api/chat through
// createSSETransport, the relay's modal shows the tool and params, and each button answers it
// through createHTTPTransport with the design's response.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { SeedChatPage } from './pages/seed-chat-page';
import { randomClientIp, randomSuffix } from './support/access-principals';
import { listGrants } from './support/grants-api';

const PASSWORD = 'seed-chat-password-1';
const username = `seed-chat-${randomSuffix()}`;
const contexts: BrowserContext[] = [];

test.beforeAll(async ({ request }) => {
  const response = await request.post('/api/users', { data: { username, role: 'user', password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(201);
});

test.afterAll(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

async function signedInSeedChat(browser: Browser, baseURL: string): Promise<SeedChatPage> {
  // No admin header: only the cookie set by signing in (and its own address for the login throttle).
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomClientIp() } });
  contexts.push(context);
  const page: Page = await context.newPage();
  const login = new LoginPage(page);
  await login.goto('?next=%2Fexamples%2Fseed-chat');
  expect((await login.signIn(username, PASSWORD)).status()).toBe(200);
  await login.expectSignedInAs(username, 'user');
  const chat = new SeedChatPage(page);
  await chat.goto();
  return chat;
}

/** Start, and wait for the relay the offline model's "Deploy to staging" call raises. */
async function startAndExpectRelay(chat: SeedChatPage) {
  await chat.start.click();
  await expect(chat.event('📞 bash')).toBeVisible({ timeout: 15_000 });
  await expect(chat.modal).toBeVisible();
  await expect(chat.modal.getByText('Tool: bash')).toBeVisible();
  await expect(chat.modal.locator('pre')).toHaveText(
    JSON.stringify({ command: "echo staging >> deployments.txt && echo 'deployed to staging'" }, null, 2),
  );
}

test('Approve Once: the call runs and its text event is rendered', async ({ browser, baseURL }) => {
  const chat = await signedInSeedChat(browser, baseURL!);
  await startAndExpectRelay(chat);
  const decision = await chat.answer(chat.approveOnce);
  expect(decision.postDataJSON()).toMatchObject({ response: { approved: true, always: false } });
  expect((await decision.response())?.status()).toBe(200);
  await expect(chat.modal).toBeHidden();
  await expect(chat.event('bash: deployed to staging')).toBeVisible();
});

test('Deny: the call does not run and the agent reports "User denied"', async ({ browser, baseURL }) => {
  const chat = await signedInSeedChat(browser, baseURL!);
  await startAndExpectRelay(chat);
  const decision = await chat.answer(chat.deny);
  expect(decision.postDataJSON()).toMatchObject({ response: { approved: false, reason: 'User denied' } });
  await expect(chat.modal).toBeHidden();
  await expect(chat.event(/^bash: Tool execution denied: User denied/)).toBeVisible();
  await expect(chat.event('deployed to staging')).toHaveCount(0);
});

test('Always Allow on a call no grant could cover (a redirection): the call runs once and no useless grant is stored', async ({
  browser,
  baseURL,
  request,
}) => {
  const chat = await signedInSeedChat(browser, baseURL!);
  await startAndExpectRelay(chat);
  const decision = await chat.answer(chat.alwaysAllow);
  const { sessionId, response } = decision.postDataJSON() as { sessionId: string; response: unknown };
  expect(response).toEqual({ approved: true, always: true });
  await expect(chat.modal).toBeHidden();
  await expect(chat.event('bash: deployed to staging')).toBeVisible();
  // The default request fixture is the admin: it reads the session's grants. A command rule never
  // covers `>>`, so the seed client's plain Always Allow approved the call once and granted nothing.
  const grants = (await listGrants(request, sessionId)).filter((grant) => grant.sessionId === sessionId);
  expect(grants).toEqual([]);
});

test('the page is signed in like any other: without a session it sends you to the login', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: {} });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/examples/seed-chat');
  await expect(page).toHaveURL(/\/login\?next=%2Fexamples%2Fseed-chat$/);
});
