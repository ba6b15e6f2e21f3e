// Page object for /login: the password form, the one-time link button, the refusal alert, and the
// header's account corner (who is signed in, Sign out).
import { expect, type Locator, type Page, type Response } from '@playwright/test';

export class LoginPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly username: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  readonly linkButton: Locator;
  /** The refusal shown above the Sign in button or in the link card. */
  readonly error: Locator;
  /** The header's account corner: present only while someone is signed in. */
  readonly account: Locator;
  readonly signOut: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Sign in' });
    this.form = page.getByRole('form', { name: 'Sign in with a password' });
    this.username = this.form.getByLabel('Username');
    this.password = this.form.getByLabel('Password');
    this.submit = this.form.getByRole('button', { name: 'Sign in' });
    this.linkButton = page.getByRole('button', { name: 'Sign in with the one-time link' });
    this.error = page.getByRole('main').getByRole('alert');
    this.account = page.getByRole('banner').getByRole('group', { name: 'Account' });
    this.signOut = this.account.getByRole('button', { name: 'Sign out', exact: true });
  }

  async goto(query = '') {
    await this.page.goto(`/login${query}`);
    await expect(this.heading).toBeVisible();
  }

  /** Submits the form and returns the API's answer (so a caller can count attempts without sleeping). */
  async signIn(username: string, password: string): Promise<Response> {
    await this.username.fill(username);
    await this.password.fill(password);
    const [response] = await Promise.all([
      this.page.waitForResponse((r) => r.url().endsWith('/api/auth/login') && r.request().method() === 'POST'),
      this.submit.click(),
    ]);
    return response;
  }

  /** Opens a one-time link (the GET never uses it) and presses the button that does. */
  async useLink(url: string): Promise<Response> {
    await this.page.goto(url);
    await expect(this.heading).toBeVisible();
    const [response] = await Promise.all([
      this.page.waitForResponse((r) => r.url().endsWith('/api/auth/login-token')),
      this.linkButton.click(),
    ]);
    return response;
  }

  /** The header shows this user signed in, with their role. */
  async expectSignedInAs(username: string, role: 'admin' | 'approver' | 'user') {
    await expect(this.account).toContainText(username);
    await expect(this.account).toContainText(role);
  }
}
