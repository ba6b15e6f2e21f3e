// Page object for /users: the create form, the users table (controls named after the row's user)
// and the dialogs for a new password and a sign-in link.
import { expect, type Locator, type Page } from '@playwright/test';

export interface NewUserInput {
  username: string;
  displayName?: string;
  role?: 'admin' | 'approver' | 'user';
  password?: string;
}

export class UsersPage {
  readonly heading: Locator;
  readonly createForm: Locator;
  readonly table: Locator;
  readonly notice: Locator;
  readonly tokens: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Users' });
    this.createForm = page.getByRole('form', { name: 'Create a user' });
    this.table = page.getByRole('table', { name: 'Users' });
    this.notice = page
      .getByRole('region', { name: 'Users', exact: true })
      .getByRole('status')
      .or(page.getByRole('region', { name: 'Users', exact: true }).getByRole('alert'));
    this.tokens = page.getByRole('region', { name: 'Your API tokens', exact: true });
  }

  async goto() {
    await this.page.goto('/users');
    await expect(this.heading).toBeVisible();
    await expect(this.table).toBeVisible();
  }

  field(label: 'Username' | 'Display name' | 'Role' | 'Password') {
    return this.createForm.getByLabel(label, { exact: true });
  }

  async fillCreate({ username, displayName = '', role = 'user', password = '' }: NewUserInput) {
    await this.field('Username').fill(username);
    await this.field('Display name').fill(displayName);
    await this.field('Role').selectOption(role);
    await this.field('Password').fill(password);
    await this.createForm.getByRole('button', { name: 'Create user' }).click();
  }

  async createUser(input: NewUserInput) {
    await this.fillCreate(input);
    await expect(this.page.getByRole('status').filter({ hasText: `Created ${input.username}` })).toBeVisible();
    await expect(this.row(input.username)).toBeVisible();
  }

  row(username: string): Locator {
    return this.table
      .getByRole('row')
      .filter({ has: this.page.getByRole('rowheader', { name: new RegExp(`^${username}\\b`) }) });
  }

  roleSelect(username: string) {
    return this.table.getByRole('combobox', { name: `Role of ${username}` });
  }

  async setRole(username: string, role: 'admin' | 'approver' | 'user') {
    await this.roleSelect(username).selectOption(role);
    await expect(this.notice).toContainText(`${username} is now`);
    await expect(this.roleSelect(username)).toHaveValue(role);
  }

  async setDisabled(username: string, disabled: boolean) {
    await this.table.getByRole('button', { name: `${disabled ? 'Disable' : 'Enable'} ${username}` }).click();
    await expect(this.row(username)).toContainText(disabled ? 'disabled' : 'active');
  }

  async resetPassword(username: string, password: string) {
    await this.table.getByRole('button', { name: `Reset password of ${username}` }).click();
    const dialog = this.page.getByRole('dialog', { name: `Reset the password of ${username}` });
    await dialog.getByLabel('New password').fill(password);
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await expect(dialog).toBeHidden();
    await expect(this.notice).toContainText(`Set a new password for ${username}`);
  }

  /** Creates a one-time sign-in link for the user, reads it from the dialog, and closes it. */
  async createLoginLink(username: string): Promise<string> {
    await this.table.getByRole('button', { name: `Create a sign-in link for ${username}` }).click();
    const dialog = this.page.getByRole('dialog', { name: `Sign-in link for ${username}` });
    const field = dialog.getByLabel('Sign-in link');
    await expect(field).toHaveValue(/\/login\?token=/);
    const url = await field.inputValue();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    return url;
  }

  /** Creates an API token of the signed-in user and returns its secret (shown once). */
  async createToken(name: string): Promise<string> {
    await this.tokens.getByLabel('Token name').fill(name);
    await this.tokens.getByRole('button', { name: 'Create token' }).click();
    const secret = this.tokens.getByLabel(`New token ${name}`);
    await expect(secret).toHaveValue(/^gh_/);
    return secret.inputValue();
  }

  async revokeToken(name: string) {
    await this.tokens.getByRole('button', { name: `Revoke token ${name}` }).click();
    await expect(this.tokens.getByRole('button', { name: `Revoke token ${name}` })).toBeHidden();
  }
}
