// Access control in the browser, against servers of its own: a fresh data directory and no
// GATEHOUSE_ADMIN_TOKEN, so the server prints the one-time admin link, like a first real start.
// The shared e2e server cannot be used: it has an admin token, and the login throttle counts per
// address, so these specs' sign-ins must not share a budget with anyone (the rate-limit test gets
// a server of its own for the same reason).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { LoginPage } from './pages/login-page';
import { seededDataDir } from './support/data-dir';
import { UsersPage } from './pages/users-page';

const FIRST_PORT = Number(process.env.E2E_AUTH_PORT ?? 3192);

/** A `next start` of the e2e build with its own empty database; collects stdout to read the printed link. */
class OwnServer {
  private output = '';
  private readonly child: ChildProcess;
  readonly base: string;

  /**
   * `next start`, or with `serve` Gatehouse's own server as `npm start` runs it (scripts/serve.sh);
   * on `dataDir`, or on a new empty one (the embedded database made by initdb, as at a first real start).
   */
  constructor(
    readonly port: number,
    { serve = false, dataDir }: { serve?: boolean; dataDir?: string } = {},
  ) {
    this.base = `http://127.0.0.1:${port}`;
    const { GATEHOUSE_ADMIN_TOKEN: _ignored, GATEHOUSE_TRUSTED_PROXIES: _default, ...env } = process.env;
    const [command, args] = serve
      ? ['/bin/sh', ['scripts/serve.sh']]
      : [process.execPath, ['node_modules/next/dist/bin/next', 'start']];
    this.child = spawn(command, [...args, '--hostname', '127.0.0.1', '--port', String(port)], {
      env: {
        ...env,
        GATEHOUSE_DATA_DIR: dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'gatehouse-auth-')),
        GATEHOUSE_MODEL: 'offline',
        NEXT_TELEMETRY_DISABLED: '1',
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
  }

  /** Resolves with the first match of `pattern` in the server's output; fails if the server exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const match = this.output.match(pattern);
        if (!match) return false;
        cleanup();
        resolve(match);
        return true;
      };
      const onExit = () => {
        cleanup();
        reject(new Error(`the server on ${this.port} exited before printing ${pattern}:\n${this.output}`));
      };
      const cleanup = () => {
        this.child.stdout!.off('data', check);
        this.child.off('exit', onExit);
      };
      if (check()) return;
      this.child.stdout!.on('data', check);
      this.child.once('exit', onExit);
    });
  }

  /** Ready to serve, and the one-time admin sign-in link it printed at startup. */
  async ready(): Promise<string> {
    const [, url] = await this.waitFor(
      /Sign in as "admin" with this one-time link[^\n]*\n[^\n]*?(http:\/\/\S+\/login\?token=\S+)/,
    );
    await this.waitFor(/Ready in|Gatehouse ready on/);
    return url!;
  }

  async stop() {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** Serious or critical axe findings (WCAG 2.x A/AA) fail the test, listed by rule and target. */
async function expectAccessible(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    what,
  ).toEqual([]);
}

// Explicitly without the suite's admin Authorization header (the config's `use` options also reach
// contexts made with browser.newContext()): these browsers sign in like people do.
const newPage = async (browser: Browser, base: string): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({ baseURL: base, extraHTTPHeaders: {} });
  return { context, page: await context.newPage() };
};

test.describe('sign-in and user management (first start without GATEHOUSE_ADMIN_TOKEN)', () => {
  test.describe.configure({ mode: 'serial', timeout: 60_000 });
  let server: OwnServer;
  let loginUrl: string;
  let admin: { context: BrowserContext; page: Page };

  test.beforeAll(async ({ browser }) => {
    // A hook has the config's 30 s, not the describe's: a first start on a loaded machine takes longer.
    test.setTimeout(120_000);
    server = new OwnServer(FIRST_PORT);
    loginUrl = await server.ready();
    admin = await newPage(browser, server.base);
  });

  test.afterAll(async () => {
    await admin?.context.close();
    await server?.stop();
  });

  test('the printed one-time link signs the admin in once', async ({ browser }) => {
    expect(loginUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${FIRST_PORT}/login\\?token=`));
    const login = new LoginPage(admin.page);
    // Opening the link shows a button; only pressing it uses the token.
    await login.goto(new URL(loginUrl).search);
    await expectAccessible(admin.page, 'the login page with a one-time link');
    const answer = await login.useLink(loginUrl);
    expect(answer.status()).toBe(200);
    await admin.page.waitForURL(`${server.base}/`);
    await login.expectSignedInAs('admin', 'admin');

    const other = await newPage(browser, server.base);
    const again = new LoginPage(other.page);
    expect((await again.useLink(loginUrl)).status()).toBe(401);
    await expect(again.error).toContainText('invalid, expired or already used');
    await expect(again.account).toBeHidden();
    await other.context.close();
  });

  test('an admin creates users, changes a role, disables one, resets a password and hands out a link', async ({
    browser,
  }) => {
    const users = new UsersPage(admin.page);
    await users.goto();
    await expect(users.row('admin')).toContainText('(you)');

    // The server's refusals appear under their fields.
    await users.fillCreate({ username: 'alice', role: 'user', password: 'short' });
    await expect(users.field('Password')).toHaveAccessibleDescription(/at least 10/);
    await users.createUser({ username: 'alice', displayName: 'Alice', role: 'user', password: 'alice-password-1' });
    await users.fillCreate({ username: 'ALICE', role: 'user' });
    await expect(users.field('Username')).toHaveAccessibleDescription(/taken/);
    await users.createUser({ username: 'bob', role: 'approver', password: 'bob-password-12' });
    await users.createUser({ username: 'carol', role: 'user' });
    await expect(users.row('carol')).toContainText('no password');

    await expectAccessible(admin.page, 'the users page');
    await users.setRole('alice', 'approver');
    await users.setDisabled('bob', true);
    await users.resetPassword('alice', 'alice-new-password');

    // Each sign-in below runs in a fresh browser: no cookie from the admin's session.
    const bob = await newPage(browser, server.base);
    const bobLogin = new LoginPage(bob.page);
    await bobLogin.goto();
    expect((await bobLogin.signIn('bob', 'bob-password-12')).status()).toBe(401);
    await expect(bobLogin.error).toHaveText('This account is disabled. Ask an admin to enable it.');
    await bob.context.close();

    const alice = await newPage(browser, server.base);
    const aliceLogin = new LoginPage(alice.page);
    await aliceLogin.goto();
    expect((await aliceLogin.signIn('alice', 'alice-password-1')).status()).toBe(401);
    await expect(aliceLogin.error).toHaveText('Wrong username or password.');
    expect((await aliceLogin.signIn('alice', 'alice-new-password')).status()).toBe(200);
    await alice.page.waitForURL(`${server.base}/`);
    await aliceLogin.expectSignedInAs('alice', 'approver');
    await alice.context.close();

    // A user without a password signs in with a link the admin created.
    const link = await users.createLoginLink('carol');
    const carol = await newPage(browser, server.base);
    const carolLogin = new LoginPage(carol.page);
    expect((await carolLogin.useLink(link)).status()).toBe(200);
    await carolLogin.expectSignedInAs('carol', 'user');
    await carol.context.close();
  });

  test('an API token made on the users page works as Bearer until it is revoked', async ({ request }) => {
    const users = new UsersPage(admin.page);
    await users.goto();
    const secret = await users.createToken('ci script');
    const me = () => request.get(`${server.base}/api/auth/me`, { headers: { Authorization: `Bearer ${secret}` } });
    const answer = await me();
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ username: 'admin', role: 'admin' });
    await users.revokeToken('ci script');
    expect((await me()).status()).toBe(401);
  });

  test('signing out ends the session; a protected page sends you to sign in and back, and a non-admin gets no access', async () => {
    const login = new LoginPage(admin.page);
    await admin.page.goto('/');
    await login.signOut.click();
    await admin.page.waitForURL(`${server.base}/login`);
    await expect(login.account).toBeHidden();
    expect((await admin.page.request.get(`${server.base}/api/auth/me`)).status()).toBe(401);

    await admin.page.goto('/users');
    await admin.page.waitForURL(`${server.base}/login?next=%2Fusers`);
    expect((await login.signIn('alice', 'alice-new-password')).status()).toBe(200);
    await admin.page.waitForURL(`${server.base}/users`);
    await expect(
      admin.page.getByRole('heading', { level: 1, name: 'You do not have access to this page' }),
    ).toBeVisible();
    await expect(admin.page.getByRole('table', { name: 'Users' })).toBeHidden();
  });
});

test.describe('login rate limit', () => {
  test.describe.configure({ timeout: 60_000 });
  let server: OwnServer;
  let loginUrl: string;

  test.beforeAll(async () => {
    // A hook has the config's 30 s, not the describe's: a first start on a loaded machine takes longer.
    test.setTimeout(120_000);
    // Not about the first start: its database is copied in (support/data-dir.ts).
    server = new OwnServer(FIRST_PORT + 1, { dataDir: await seededDataDir('gatehouse-auth-') });
    loginUrl = await server.ready();
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('the 11th wrong password in a row is refused with the wait time', async ({ browser }) => {
    const { context, page } = await newPage(browser, server.base);
    const login = new LoginPage(page);
    await login.goto();
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect((await login.signIn('admin', `wrong-password-${attempt}`)).status()).toBe(401);
      await expect(login.error).toHaveText('Wrong username or password.');
    }
    const refused = await login.signIn('admin', 'wrong-password-11');
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
    await expect(login.error).toHaveText(/^Too many sign-in attempts\. Try again in \d+ (min|s)\.$/);
    await context.close();
  });

  test('failed one-time links count per address: the 11th is refused like a password, even with a valid link, which stays unused', async ({
    playwright,
  }) => {
    // Addresses of their own (X-Forwarded-For), so this budget is not the browser test's above.
    const api = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: {} });
    const from = (ip: string) => ({ Origin: server.base, 'X-Forwarded-For': ip });
    const valid = new URL(loginUrl).searchParams.get('token')!;
    for (let attempt = 1; attempt <= 10; attempt++) {
      const wrong = await api.post('/api/auth/login-token', {
        headers: from('203.0.113.9'),
        data: { token: `not-the-token-${attempt}` },
      });
      expect(wrong.status()).toBe(401);
      expect((await wrong.json()).error.code).toBe('unauthorized:login_token');
    }
    const refused = await api.post('/api/auth/login-token', { headers: from('203.0.113.9'), data: { token: valid } });
    expect(refused.status()).toBe(429);
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
    expect((await refused.json()).error).toMatchObject({
      code: 'rate_limited:login',
      retryAfterS: Number(refused.headers()['retry-after']),
    });
    // One budget per address: passwords from there are refused too.
    const password = await api.post('/api/auth/login', {
      headers: from('203.0.113.9'),
      data: { username: 'someone-else', password: 'a-password-guess' },
    });
    expect(password.status()).toBe(429);
    // The refused attempt did not use the link up: from another address it signs in.
    const signedIn = await api.post('/api/auth/login-token', { headers: from('203.0.113.10'), data: { token: valid } });
    expect(signedIn.status()).toBe(200);
    expect((await signedIn.json()).user).toMatchObject({ username: 'admin' });
    await api.dispose();
  });
});

test.describe('the login limit per address, behind no proxy (npm start, GATEHOUSE_TRUSTED_PROXIES unset)', () => {
  test.describe.configure({ timeout: 60_000 });
  let server: OwnServer;

  test.beforeAll(async () => {
    // A hook has the config's 30 s, not the describe's: a first start on a loaded machine takes longer.
    test.setTimeout(120_000);
    server = new OwnServer(FIRST_PORT + 2, { serve: true, dataDir: await seededDataDir('gatehouse-auth-') });
    await server.ready();
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  test('a client that sends a new X-Forwarded-For with every attempt is still one address: the 11th failure is refused', async ({
    playwright,
  }) => {
    const api = await playwright.request.newContext({ baseURL: server.base, extraHTTPHeaders: {} });
    for (let attempt = 1; attempt <= 10; attempt++) {
      const wrong = await api.post('/api/auth/login-token', {
        headers: { Origin: server.base, 'X-Forwarded-For': `198.51.100.${attempt}` },
        data: { token: `not-the-token-${attempt}` },
      });
      expect(wrong.status()).toBe(401);
    }
    const refused = await api.post('/api/auth/login-token', {
      headers: { Origin: server.base, 'X-Forwarded-For': '198.51.100.99' },
      data: { token: 'not-the-token-11' },
    });
    expect(refused.status()).toBe(429);
    expect((await refused.json()).error.code).toBe('rate_limited:login');
    await api.dispose();
  });
});
