// A deny rule added in the rule editor takes effect at once: the chat's matching call is denied
// without an approval dialog. The rule is deleted in the editor afterwards.
import { expect, test } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { marker, removeRules } from './support/policy-api';

const mark = marker();
const id = `rules-deny-${mark}`;

test.afterEach(async ({ request }) => {
  await removeRules(request, mark);
});

test('a deny rule added in the editor denies the matching chat call without asking', async ({ page }) => {
  const rules = new RulesPage(page);
  await rules.goto();
  await rules.addRule({ id, action: 'deny', tool: 'bash', params: { command: `echo ${id}*` } });
  const row = rules.ruleRow(id);
  await expect(row).toContainText('deny');
  await expect(row).toContainText(`echo ${id}*`);

  await page.goto('/');
  await page.getByRole('textbox', { name: 'Message' }).fill(`$ echo ${id}`);
  await page.getByRole('button', { name: 'Send' }).click();
  const call = page.getByRole('article', { name: 'bash call' });
  await expect(call).toContainText('denied');
  await expect(page.getByRole('dialog', { name: 'Permission required' })).toHaveCount(0);

  await rules.goto();
  await rules.deleteRule(id);
  await expect(rules.ruleRow(id)).toHaveCount(0);
});
