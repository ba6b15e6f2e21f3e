// Page object of the rule editor (/rules): the rules table and form, the conflict notice, test a
// call, import / export, grants and version history, all located by role and accessible name.
import { expect, type Locator, type Page } from '@playwright/test';

export interface RuleInput {
  id: string;
  action: 'allow' | 'ask' | 'deny';
  tool: string;
  params?: Record<string, string>;
  timeoutS?: number;
}

export class RulesPage {
  readonly rules: Locator;
  readonly testCall: Locator;
  readonly importExport: Locator;
  readonly grants: Locator;
  readonly history: Locator;
  readonly conflictNotice: Locator;

  constructor(readonly page: Page) {
    this.rules = page.getByRole('region', { name: 'Rules', exact: true });
    this.testCall = page.getByRole('region', { name: 'Test a call', exact: true });
    this.importExport = page.getByRole('region', { name: 'Import and export', exact: true });
    this.grants = page.getByRole('region', { name: 'Always Allow grants', exact: true });
    this.history = page.getByRole('region', { name: 'Version history', exact: true });
    this.conflictNotice = page.getByRole('alert').filter({ hasText: 'Someone else changed the rules' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/rules');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Rules' })).toBeVisible();
    await expect(this.rules.getByText(/^Version \d+ ·/)).toBeVisible();
  }

  /** A rule's row, in whichever group (Allow / Ask / Deny, own or built-in) holds it. */
  ruleRow(text: string): Locator {
    return this.rules.getByRole('row').filter({ hasText: text });
  }

  /** One action's group of rules: "Allow", "Ask" or "Deny". */
  group(title: 'Allow' | 'Ask' | 'Deny'): Locator {
    return this.rules.getByRole('region', { name: new RegExp(`^${title} \\(\\d+\\)$`) });
  }

  /** The section nav's link to a section. */
  sectionLink(name: string): Locator {
    return this.page.getByRole('navigation', { name: 'Rules page sections' }).getByRole('link', { name, exact: true });
  }

  form(name: string | RegExp = 'Add rule'): Locator {
    return this.rules.getByRole('form', { name });
  }

  async openAddRule(): Promise<Locator> {
    await this.rules.getByRole('button', { name: 'Add rule' }).click();
    const form = this.form();
    await expect(form).toBeVisible();
    return form;
  }

  async fillRule(form: Locator, rule: RuleInput): Promise<void> {
    await form.getByLabel('Action', { exact: true }).selectOption(rule.action);
    await form.getByLabel('Tool', { exact: true }).fill(rule.tool);
    await form.getByLabel('Rule ID', { exact: true }).fill(rule.id);
    if (rule.timeoutS !== undefined) await form.getByLabel('Timeout (seconds)').fill(String(rule.timeoutS));
    const params = Object.entries(rule.params ?? {});
    for (const [i, [key, pattern]] of params.entries()) {
      await form.getByRole('button', { name: 'Add parameter' }).click();
      await form.getByLabel(`Parameter ${i + 1} name`).fill(key);
      await form.getByLabel(`Parameter ${i + 1} pattern`).fill(pattern);
    }
  }

  /**
   * Adds a rule through the form. Other specs share the server: if one of them saved in between,
   * the editor reports the conflict, and a user would reload and add the rule again; so does this.
   */
  async addRule(rule: RuleInput): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const form = await this.openAddRule();
      await this.fillRule(form, rule);
      await form.getByRole('button', { name: 'Save rule' }).click();
      const saved = this.rules.getByRole('status').filter({ hasText: `Added rule ${rule.id}.` });
      await expect(saved.or(this.conflictNotice)).toBeVisible();
      if (await saved.isVisible()) return;
      await this.reloadAfterConflict();
    }
    throw new Error(`could not add rule ${rule.id}: the policy kept changing`);
  }

  async deleteRule(name: string): Promise<void> {
    for (let attempt = 0; attempt < 5; attempt++) {
      await this.rules.getByRole('button', { name: `Delete rule ${name}`, exact: true }).click();
      const dialog = this.page.getByRole('dialog', { name: `Delete rule ${name}?` });
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      const deleted = this.rules.getByRole('status').filter({ hasText: `Deleted rule ${name}.` });
      await expect(deleted.or(this.conflictNotice)).toBeVisible();
      if (await deleted.isVisible()) return;
      await this.reloadAfterConflict();
    }
    throw new Error(`could not delete rule ${name}: the policy kept changing`);
  }

  async reloadAfterConflict(): Promise<void> {
    await this.conflictNotice.getByRole('button', { name: 'Reload' }).click();
    await expect(this.conflictNotice).toHaveCount(0);
  }

  async runTestCall(call: {
    tool: string;
    params: Record<string, unknown>;
    agent?: string;
    mode?: string;
  }): Promise<Locator> {
    await this.testCall.getByLabel('Tool', { exact: true }).fill(call.tool);
    await this.testCall.getByLabel('Agent', { exact: true }).fill(call.agent ?? '');
    if (call.mode) await this.testCall.getByLabel('Mode').selectOption({ label: call.mode });
    await this.testCall.getByLabel('Params (JSON)').fill(JSON.stringify(call.params));
    await this.testCall.getByRole('button', { name: 'Test call' }).click();
    const decision = this.testCall.getByRole('region', { name: /^Decision (allow|deny|ask)\b/ });
    await expect(decision).toBeVisible();
    return decision;
  }

  async previewImport(text: string): Promise<void> {
    await this.importExport.getByLabel('Policy to import').fill(text);
    await this.importExport.getByRole('button', { name: 'Preview import' }).click();
    await expect(this.importExport.getByRole('status').filter({ hasText: 'Preview:' })).toBeVisible();
  }

  /**
   * Previews and imports `text`: the new version, or undefined when another spec saved first (the
   * conflict notice is dismissed with Reload). A retry must rebuild `text` from the reloaded policy,
   * or it would overwrite that other change, so the caller decides.
   */
  async importPolicy(text: string): Promise<number | undefined> {
    await this.previewImport(text);
    return this.confirmImport();
  }

  /** After a preview: Import as new version, confirm the replacement; the new version, or undefined after a conflict. */
  async confirmImport(): Promise<number | undefined> {
    await this.importExport.getByRole('button', { name: 'Import as new version' }).click();
    const dialog = this.importDialog;
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Replace the rules' }).click();
    const done = this.importExport.getByRole('status').filter({ hasText: /Imported \d+ rules as version \d+\./ });
    await expect(done.or(this.conflictNotice)).toBeVisible();
    if (await done.isVisible()) return Number((await done.textContent())?.match(/version (\d+)/)?.[1]);
    await this.reloadAfterConflict();
    return undefined;
  }

  get importDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Replace the rules with the import?' });
  }

  /** The policy version the editor shows (and bases its saves on). */
  async shownVersion(): Promise<number> {
    const text = await this.rules.getByText(/^Version \d+ ·/).textContent();
    return Number(text?.match(/Version (\d+)/)?.[1]);
  }

  /** Restores `version` from the history: the new version, or undefined after a conflict (as for importPolicy). */
  async restoreVersion(version: number): Promise<number | undefined> {
    await this.history.getByRole('button', { name: `Restore version ${version}`, exact: true }).click();
    const restored = this.history.getByRole('status').filter({ hasText: `Restored version ${version} as version` });
    await expect(restored.or(this.conflictNotice)).toBeVisible();
    if (await restored.isVisible()) return Number((await restored.textContent())?.match(/as version (\d+)/)?.[1]);
    await this.reloadAfterConflict();
    return undefined;
  }

  versionRow(version: number): Locator {
    return this.history.getByRole('row').filter({ hasText: new RegExp(`^Version ${version}(?!\\d)`) });
  }

  grantRow(text: string): Locator {
    return this.grants.getByRole('row').filter({ hasText: text });
  }
}
