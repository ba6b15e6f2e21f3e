// Page object of the rules page's Shadow policy panel: set a shadow, read its differences,
// promote or clear it. Located by role and accessible name.
import { expect, type Locator, type Page } from '@playwright/test';

export class ShadowPanel {
  readonly region: Locator;
  readonly policyText: Locator;
  readonly differences: Locator;
  readonly promoteDialog: Locator;

  constructor(readonly page: Page) {
    this.region = page.getByRole('region', { name: 'Shadow policy', exact: true });
    this.policyText = this.region.getByRole('textbox', { name: 'Shadow policy' });
    this.differences = this.region.getByRole('table', { name: 'Differences by decision and tool' });
    this.promoteDialog = page.getByRole('dialog', { name: 'Promote the shadow to live?' });
  }

  /** Starts from the live rules shown, lets `change` edit them, and sets the result as the shadow. */
  async setFromLiveRules(change: (policy: { rules: unknown[] } & Record<string, unknown>) => unknown): Promise<void> {
    await this.region.getByRole('button', { name: 'Start from the live rules' }).click();
    await expect(this.policyText).not.toHaveValue('');
    const live = JSON.parse(await this.policyText.inputValue()) as { rules: unknown[] } & Record<string, unknown>;
    await this.policyText.fill(JSON.stringify(change(live), null, 2));
    await this.region.getByRole('button', { name: 'Set as shadow' }).click();
    await expect(this.region.getByRole('status').filter({ hasText: 'Shadow set:' })).toBeVisible();
  }

  /** The row of the differences table for (live -> shadow, tool). */
  group(live: string, shadow: string, tool: string): Locator {
    return this.differences
      .getByRole('row')
      .filter({ hasText: `${live} → ${shadow}` })
      .filter({ has: this.page.getByRole('cell', { name: tool, exact: true }) });
  }

  async promote(): Promise<void> {
    await this.region.getByRole('button', { name: 'Promote to live' }).click();
    await expect(this.promoteDialog).toBeVisible();
    await this.promoteDialog.getByRole('button', { name: 'Promote', exact: true }).click();
  }
}
