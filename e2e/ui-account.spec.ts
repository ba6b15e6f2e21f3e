// Accounts in the browser, on the shared e2e server: changing your own password keeps you signed
// in where you did it (your other sessions end); the navigation links only the pages your role may
// open (signed out: none); the Create user form keeps what was typed when the server refuses it.
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { UsersPage } from './pages/users-page';
import { randomClientIp, randomSuffix } from './support/access-principals';

const PASSWORD = 'account-password-1';
const contexts: BrowserContext[] = [];

test.afterAll(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

/** A fresh browser without the suite's admin header. */
async function bareBrowser(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'X-Forwarded-For': randomClientIp() } });
  contexts.push(context);
  return context.newPage();
}

async function newAccount(request: import('@playwright/test').APIRequestContext, role: 'user' | 'approver') {
  const username = `account-${role}-${randomSuffix()}`;
  const response = await request.post('/api/users', { data: { username, role, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(201);
  return username;
}

async function signedIn(
  browser: Browser,
  baseURL: string,
  username: string,
  role: 'user' | 'approver',
  password = PASSWORD,
): Promise<Page> {
  const page = await bareBrowser(browser, baseURL);
  const login = new LoginPage(page);
  await login.goto();
  expect((await login.signIn(username, password)).status()).toBe(200);
  await page.waitForURL(`${baseURL}/`);
  await login.expectSignedInAs(username, role);
  return page;
}

const mainNav = (page: Page) => page.getByRole('banner').getByRole('navigation', { name: 'Main' });

/** The Approvals link, with the pending count beside it when there is one (other specs' relays). */
const APPROVALS = /^Approvals\s*(\d+\+?\s*pending)?$/;

test('changing your own password keeps this session and ends your others', async ({ browser, baseURL, request }) => {
  const username = await newAccount(request, 'user');
  const here = await signedIn(browser, baseURL!, username, 'user');
  const elsewhere = await signedIn(browser, baseURL!, username, 'user');

  const account = here.getByRole('banner').getByRole('group', { name: 'Account' });
  await account.getByRole('button', { name: 'Change password' }).click();
  const dialog = here.getByRole('dialog', { name: 'Change your password' });
  await expect(dialog.getByLabel('Current password')).toBeFocused();

  // A wrong current password: refused under its field, and what was typed stays.
  await dialog.getByLabel('Current password').fill('not-my-password');
  await dialog.getByLabel('New password').fill('account-password-2');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByLabel('Current password')).toHaveAccessibleDescription(/not your current password/);
  await expect(dialog.getByLabel('New password')).toHaveValue('account-password-2');

  await dialog.getByLabel('Current password').fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog).toBeHidden();
  await expect(account.getByRole('status')).toHaveText('Password changed. Your other sessions are signed out.');

  // Still signed in here, after a reload too; the other browser is signed out.
  await here.reload();
  await new LoginPage(here).expectSignedInAs(username, 'user');
  expect((await here.request.get('/api/auth/me')).status()).toBe(200);
  expect((await elsewhere.request.get('/api/auth/me')).status()).toBe(401);
  await elsewhere.goto('/runs');
  await expect(elsewhere).toHaveURL(/\/login\?next=%2Fruns$/);

  // The new password signs in; the old one no longer does.
  const fresh = new LoginPage(await bareBrowser(browser, baseURL!));
  await fresh.goto();
  expect((await fresh.signIn(username, PASSWORD)).status()).toBe(401);
  expect((await fresh.signIn(username, 'account-password-2')).status()).toBe(200);
});

test('the navigation shows only the pages the user may open; signed out, none', async ({
  browser,
  baseURL,
  page,
  request,
}) => {
  const signedOut = await bareBrowser(browser, baseURL!);
  await new LoginPage(signedOut).goto();
  await expect(signedOut.getByRole('banner')).toBeVisible();
  await expect(mainNav(signedOut).getByRole('link')).toHaveCount(0);

  const user = await signedIn(browser, baseURL!, await newAccount(request, 'user'), 'user');
  await expect(mainNav(user).getByRole('link')).toHaveText(['Chat', APPROVALS, 'Runs', 'Connect']);
  const approver = await signedIn(browser, baseURL!, await newAccount(request, 'approver'), 'approver');
  await expect(mainNav(approver).getByRole('link')).toHaveText(['Chat', APPROVALS, 'Runs', 'Connect', 'Audit']);
  // The suite's own browser is the admin.
  await page.goto('/runs');
  await expect(mainNav(page).getByRole('link')).toHaveText([
    'Chat',
    APPROVALS,
    'Rules',
    'Runs',
    'Connect',
    'Audit',
    'Users',
    'Servers',
  ]);
});

test('the Create user form keeps what was typed when the server refuses it', async ({ page }) => {
  const users = new UsersPage(page);
  await users.goto();
  await users.fillCreate({
    username: 'admin',
    displayName: 'Someone Else',
    role: 'approver',
    password: 'account-password-3',
  });
  await expect(users.field('Username')).toHaveAccessibleDescription(/taken/);
  await expect(users.field('Username')).toHaveValue('admin');
  await expect(users.field('Display name')).toHaveValue('Someone Else');
  await expect(users.field('Role')).toHaveValue('approver');
  await expect(users.field('Password')).toHaveValue('account-password-3');
});
