// The rule form's validation: the engine's schema is checked in the browser (an empty tool), the
// server's compile errors (a pattern that is not one simple command) land on the input they name,
// and nothing invalid is saved. Also an axe scan of the page with the form open.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { getPolicy, marker, removeRules, ruleIds } from './support/policy-api';

const mark = marker();
const id = `rules-invalid-${mark}`;

test.afterEach(async ({ request }) => {
  await removeRules(request, mark);
});

test('client and server field errors are shown inline on the right input and nothing is saved', async ({
  page,
  request,
}) => {
  const rules = new RulesPage(page);
  await rules.goto();
  const form = await rules.openAddRule();
  await form.getByRole('button', { name: 'Save rule' }).click();
  const tool = form.getByLabel('Tool', { exact: true });
  await expect(tool).toHaveAttribute('aria-invalid', 'true');
  await expect(tool).toHaveAccessibleDescription('tool must not be empty');
  await expect(tool).toBeFocused();

  await rules.fillRule(form, { id, action: 'allow', tool: 'bash', params: { command: `echo ${mark} | sh` } });
  await form.getByRole('button', { name: 'Save rule' }).click();
  const pattern = form.getByLabel('Parameter 1 pattern');
  await expect(pattern).toHaveAccessibleDescription(/must be one simple command/);
  await expect(pattern).toHaveAttribute('aria-invalid', 'true');
  await expect(tool).not.toHaveAttribute('aria-invalid', 'true');
  expect(ruleIds((await getPolicy(request)).policy)).not.toContain(id);

  const scan = await new AxeBuilder({ page }).include('main').analyze();
  expect(scan.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
