// Sessions and credentials that end, on the shared e2e server: signing out ends the session itself
// (a copied cookie stops working), an admin or the user signs out everywhere, a password reset ends
// the sessions (changing your own keeps the one it came from), only the newest sign-in link works, a disabled user's tokens stay revoked when the
// user is enabled again, and a run's open stream ends (delivering nothing more) when the credential
// it was opened with stops being valid.
import { expect, test, type PlaywrightWorkerArgs } from '@playwright/test';
import {
  adminPrincipal,
  createUser,
  openStream,
  randomClientIp,
  randomSuffix,
  send,
  signIn,
  type Account,
  type Principal,
} from './support/access-principals';
import { UsersPage } from './pages/users-page';
import { uniqueMarker } from './support/runs-api';

const PASSWORD = 'sessions-password-1';

let admin: Principal;
const opened: Principal[] = [];

test.beforeAll(async ({ playwright, baseURL }) => {
  admin = await adminPrincipal(playwright, baseURL!);
});

test.afterAll(async () => {
  for (const who of [admin, ...opened]) await who?.api.dispose();
});

/** A new account of `role`, and `sessions` sessions of it (each signed in on its own). */
async function accountWithSessions(
  playwright: PlaywrightWorkerArgs['playwright'],
  baseURL: string,
  role: 'user' | 'approver',
  sessions: number,
) {
  const account = await createUser(admin, `sessions-${role}-${randomSuffix()}`, role, PASSWORD);
  const signedIn: Principal[] = [];
  for (let i = 0; i < sessions; i++) signedIn.push(await signIn(playwright, baseURL, account.username, PASSWORD));
  opened.push(...signedIn);
  return { account, sessions: signedIn };
}

/** Who the credentials are now: the status of GET /api/auth/me. */
async function meStatus(who: Principal): Promise<number> {
  return (await send(who, 'GET', '/api/auth/me')).status();
}

/** An API token of the principal's own, and a principal that carries it instead of the cookie. */
async function tokenOf(who: Principal): Promise<{ id: string; principal: Principal }> {
  const created = await send(who, 'POST', '/api/tokens', { data: { name: 'sessions spec' } });
  expect(created.status(), await created.text()).toBe(201);
  const { id, token } = (await created.json()) as { id: string; token: string };
  return { id, principal: { ...who, credentials: { Authorization: `Bearer ${token}` } } };
}

async function setDisabled(account: Account, disabled: boolean) {
  const response = await send(admin, 'PATCH', `/api/users/${account.id}`, { data: { disabled } });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe('sessions end for real', () => {
  test('signing out ends the session: a copy of its cookie is refused afterwards, other sessions go on', async ({
    playwright,
    baseURL,
  }) => {
    const { sessions } = await accountWithSessions(playwright, baseURL!, 'user', 2);
    const [laptop, phone] = sessions as [Principal, Principal];
    const copy: Principal = { ...laptop, credentials: { ...laptop.credentials } };
    expect((await send(laptop, 'POST', '/api/auth/logout')).status()).toBe(200);
    expect(await meStatus(copy)).toBe(401);
    expect(await meStatus(phone)).toBe(200);
  });

  test('an admin signs a user out everywhere from the users page: every session ends, the API token stays', async ({
    playwright,
    baseURL,
    page,
  }) => {
    const { account, sessions } = await accountWithSessions(playwright, baseURL!, 'user', 2);
    const token = await tokenOf(sessions[0]!);
    const users = new UsersPage(page);
    await users.goto();
    await users.table.getByRole('button', { name: `Sign out everywhere for ${account.username}` }).click();
    await expect(users.notice).toHaveText(`${account.username} is signed out everywhere (2 sessions ended).`);
    for (const session of sessions) expect(await meStatus(session)).toBe(401);
    expect(await meStatus(token.principal)).toBe(200);
    const audit = await send(admin, 'GET', '/api/audit?kind=user_sessions_ended&limit=50');
    expect(JSON.stringify(await audit.json())).toContain(account.username);
  });

  test('signing out everywhere from the account menu ends every session of mine', async ({
    playwright,
    baseURL,
    browser,
  }) => {
    const { sessions } = await accountWithSessions(playwright, baseURL!, 'user', 2);
    const [inBrowser, elsewhere] = sessions as [Principal, Principal];
    const context = await browser.newContext({ extraHTTPHeaders: {} });
    try {
      const value = inBrowser.credentials.Cookie!.replace(/^gh_session=/, '');
      await context.addCookies([{ name: 'gh_session', value, url: baseURL! }]);
      const page = await context.newPage();
      await page.goto('/');
      const account = page.getByRole('group', { name: 'Account' });
      await account.getByRole('button', { name: 'Sign out everywhere' }).click();
      await expect(page).toHaveURL(/\/login$/);
      expect(await meStatus(inBrowser)).toBe(401);
      expect(await meStatus(elsewhere)).toBe(401);
    } finally {
      await context.close();
    }
  });

  test("a password reset ends the user's sessions", async ({ playwright, baseURL }) => {
    const { account, sessions } = await accountWithSessions(playwright, baseURL!, 'approver', 1);
    const reset = await send(admin, 'POST', `/api/users/${account.id}/password`, {
      data: { password: 'another-password-2' },
    });
    expect(reset.status()).toBe(200);
    expect(await meStatus(sessions[0]!)).toBe(401);
  });

  test('changing your own password keeps the session it came from and ends your others', async ({
    playwright,
    baseURL,
  }) => {
    const { account, sessions } = await accountWithSessions(playwright, baseURL!, 'user', 2);
    const [here, elsewhere] = sessions as [Principal, Principal];
    const wrong = await send(here, 'POST', '/api/auth/password', {
      data: { currentPassword: 'not-the-password', password: 'my-new-password-1' },
    });
    expect(wrong.status()).toBe(400);
    expect((await wrong.json()).error.fields).toEqual([
      { path: 'currentPassword', message: 'This is not your current password' },
    ]);
    expect(await meStatus(elsewhere), 'a refused change ends nothing').toBe(200);

    const changed = await send(here, 'POST', '/api/auth/password', {
      data: { currentPassword: PASSWORD, password: 'my-new-password-1' },
    });
    expect(changed.status(), await changed.text()).toBe(200);
    expect(await meStatus(here)).toBe(200);
    expect(await meStatus(elsewhere)).toBe(401);
    const login = await here.api.post('/api/auth/login', {
      headers: { Origin: new URL(baseURL!).origin, 'X-Forwarded-For': randomClientIp() },
      data: { username: account.username, password: 'my-new-password-1' },
    });
    expect(login.status()).toBe(200);
  });
});

test.describe('credentials that must not come back', () => {
  test('only the newest sign-in link works: issuing one makes the older unused link invalid', async () => {
    const account = await createUser(admin, `sessions-link-${randomSuffix()}`, 'user', PASSWORD);
    const link = async () => {
      const response = await send(admin, 'POST', `/api/users/${account.id}/login-link`);
      expect(response.status()).toBe(201);
      return new URL(((await response.json()) as { path: string }).path, 'http://x').searchParams.get('token')!;
    };
    const older = await link();
    const newer = await link();
    // As a browser without credentials would (plain fetch: no cookie jar, no admin token).
    const exchange = (token: string) =>
      fetch(new URL('/api/auth/login-token', admin.baseURL), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Origin: new URL(admin.baseURL).origin,
          'X-Forwarded-For': randomClientIp(),
        },
        body: JSON.stringify({ token }),
      });
    const refused = await exchange(older);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unauthorized:login_token');
    expect((await exchange(newer)).status).toBe(200);
  });

  test('disabling a user revokes their API tokens: enabling them again brings none back', async ({
    playwright,
    baseURL,
  }) => {
    const { account, sessions } = await accountWithSessions(playwright, baseURL!, 'user', 1);
    const token = await tokenOf(sessions[0]!);
    expect(await meStatus(token.principal)).toBe(200);
    await setDisabled(account, true);
    await setDisabled(account, false);
    expect(await meStatus(token.principal)).toBe(401);
    expect(await meStatus(sessions[0]!)).toBe(401);
  });
});

test.describe('open streams end with their credential', () => {
  /** The user's own waiting run, its stream open with the user's credentials. */
  async function waitingStream(who: Principal) {
    const { response, events } = await openStream(who, 'POST', '/api/chat', {
      messages: [{ role: 'user', content: `$ echo ${uniqueMarker('stream-end')}` }],
    });
    expect(response.status).toBe(200);
    const { runId, sessionId } = (await events.until('connected')).data as { runId: string; sessionId: string };
    const relayId = ((await events.until('relay')).data as { id: string }).id;
    return { events, runId, sessionId, relayId };
  }

  /** Reads to the stream's end: it must end with the access-ended error and carry nothing of the run after it. */
  async function endsWithAccessError(events: Awaited<ReturnType<typeof waitingStream>>['events']) {
    const error = await events.until('error');
    expect(error.data).toMatchObject({ code: 'unauthorized' });
    expect(await events.rest()).toEqual([]);
  }

  test("a user disabled while their stream is open: the stream ends and the approved call's output never reaches it", async ({
    playwright,
    baseURL,
  }) => {
    const { account, sessions } = await accountWithSessions(playwright, baseURL!, 'user', 1);
    const run = await waitingStream(sessions[0]!);
    await setDisabled(account, true);
    await endsWithAccessError(run.events);
    // The run itself goes on: an admin approves, and the output goes to whoever may still see it.
    const approved = await send(admin, 'POST', `/api/chat/relay/${run.relayId}`, {
      data: { sessionId: run.sessionId, response: { approved: true } },
    });
    expect(approved.status()).toBe(200);
  });

  test("a follower's stream ends when its session signs out", async ({ playwright, baseURL }) => {
    const { sessions } = await accountWithSessions(playwright, baseURL!, 'user', 1);
    const run = await waitingStream(sessions[0]!);
    await run.events.cancel();
    const { events } = await openStream(sessions[0]!, 'GET', `/api/runs/${run.runId}/events`);
    await events.until('relay');
    expect((await send(sessions[0]!, 'POST', '/api/auth/logout')).status()).toBe(200);
    await endsWithAccessError(events);
    await send(admin, 'POST', `/api/runs/${run.runId}/cancel`);
  });

  test('a stream opened with an API token ends when the token is revoked', async ({ playwright, baseURL }) => {
    const { sessions } = await accountWithSessions(playwright, baseURL!, 'user', 1);
    const token = await tokenOf(sessions[0]!);
    const run = await waitingStream(token.principal);
    expect((await send(sessions[0]!, 'DELETE', `/api/tokens/${token.id}`)).status()).toBe(200);
    await endsWithAccessError(run.events);
    await send(admin, 'POST', `/api/runs/${run.runId}/cancel`);
  });
});
