// Page object for /runs: the runs table, its status filter, cancel (with its confirmation) and the
// link that opens a run's transcript.
import { expect, type Locator, type Page } from '@playwright/test';

export class RunsPage {
  readonly heading: Locator;
  readonly table: Locator;
  readonly statusFilter: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Runs' });
    this.table = page.getByRole('table', { name: 'Runs, newest first' });
    this.statusFilter = page.getByRole('combobox', { name: 'Status' });
  }

  async goto(query = '') {
    await this.page.goto(`/runs${query}`);
    await expect(this.heading).toBeVisible();
  }

  /** The row of the run whose title contains `text` (e.g. the spec's marker). */
  row(text: string): Locator {
    return this.table.getByRole('row').filter({ hasText: text });
  }

  /** The run's title, a link to its transcript in the chat. */
  transcriptLink(title: string): Locator {
    return this.row(title).getByRole('link', { name: title, exact: true });
  }

  async expectStatus(text: string, status: string) {
    await expect(this.row(text).getByRole('cell').nth(1)).toHaveText(status);
  }

  async filterByStatus(label: string) {
    await this.statusFilter.selectOption({ label });
  }

  async cancel(text: string) {
    await this.row(text)
      .getByRole('button', { name: /^Cancel run/ })
      .click();
    const dialog = this.page.getByRole('dialog', { name: 'Cancel this run?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel run', exact: true }).click();
    // Closes once the server has stopped the run (pending approvals become denials first).
    await expect(dialog).toBeHidden({ timeout: 10_000 });
  }
}
