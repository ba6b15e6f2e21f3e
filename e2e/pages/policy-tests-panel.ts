// Page object of the rules page's Policy tests panel: add a test through its form, run the tests,
// save them, and read each test's row, all by role and accessible name.
import { expect, type Locator, type Page } from '@playwright/test';

export interface TestInput {
  name: string;
  tool: string;
  params: Record<string, unknown>;
  expect: 'allow' | 'ask' | 'deny';
}

export class PolicyTestsPanel {
  readonly panel: Locator;
  readonly conflictNotice: Locator;

  constructor(readonly page: Page) {
    this.panel = page.getByRole('region', { name: 'Policy tests', exact: true });
    this.conflictNotice = page.getByRole('alert').filter({ hasText: 'Someone else changed the rules' });
  }

  async addTest(test: TestInput): Promise<void> {
    await this.panel.getByRole('button', { name: 'Add test' }).click();
    const form = this.panel.getByRole('form', { name: 'Add a test' });
    await form.getByLabel('Test name').fill(test.name);
    await form.getByLabel('Tool', { exact: true }).fill(test.tool);
    await form.getByLabel('Call params (JSON)').fill(JSON.stringify(test.params));
    await form.getByLabel('Expected decision').selectOption(test.expect);
    await form.getByRole('button', { name: 'Add test' }).click();
    await expect(form).toHaveCount(0);
    await expect(this.row(test.name)).toContainText(test.expect);
  }

  row(name: string): Locator {
    return this.panel.getByRole('table', { name: 'Policy tests' }).getByRole('row').filter({ hasText: name });
  }

  async run(): Promise<void> {
    await this.panel.getByRole('button', { name: 'Run tests' }).click();
    await expect(
      this.panel
        .getByRole('status')
        .or(this.panel.getByRole('alert'))
        .filter({ hasText: /\d+ tests?: \d+ passed, \d+ failed\./ }),
    ).toBeVisible();
  }

  /** Clicks Save tests: 'saved', 'refused' (a test fails) or 'conflict' (another save came first). */
  async save(): Promise<'saved' | 'refused' | 'conflict'> {
    await this.panel.getByRole('button', { name: 'Save tests' }).click();
    const saved = this.panel
      .getByRole('status')
      .filter({ hasText: /^Saved \d+ tests?\. The rules are now version \d+\.$/ });
    const refused = this.panel.getByRole('alert').filter({ hasText: /^The policy was not saved: / });
    await expect(saved.or(refused).or(this.conflictNotice)).toBeVisible();
    if (await saved.isVisible()) return 'saved';
    return (await refused.isVisible()) ? 'refused' : 'conflict';
  }

  async reloadAfterConflict(): Promise<void> {
    await this.conflictNotice.getByRole('button', { name: 'Reload' }).click();
    await expect(this.conflictNotice).toHaveCount(0);
  }
}
