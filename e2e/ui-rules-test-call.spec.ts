// Test a call: a compound shell command shows the decision of each part, and the rule that
// decided the whole call is highlighted in the rules table.
import { expect, test } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { addRules, marker, removeRules } from './support/policy-api';

const mark = marker();
const allowId = `rules-tc-allow-${mark}`;
const denyId = `rules-tc-deny-${mark}`;

test.beforeEach(async ({ request }) => {
  await addRules(
    request,
    { id: allowId, action: 'allow', tool: 'bash', params: { command: `echo tc-${mark}*` } },
    { id: denyId, action: 'deny', tool: 'bash', params: { command: `touch tc-${mark}*` } },
  );
});

test.afterEach(async ({ request }) => {
  await removeRules(request, mark);
});

test('a shell command with several parts shows each part’s decision and highlights the deciding rule', async ({
  page,
}) => {
  const rules = new RulesPage(page);
  await rules.goto();
  const command = `echo tc-${mark} && touch tc-${mark}.txt && ls`;
  const decision = await rules.runTestCall({ tool: 'bash', params: { command } });

  await expect(decision.getByRole('heading', { name: /Decision/ })).toContainText('deny');
  await expect(decision).toContainText(`deciding rule ${denyId}`);
  const parts = decision.getByRole('table', { name: 'Decision of each part' });
  const part = (command: string) =>
    parts.getByRole('row').filter({ has: page.getByRole('cell', { name: command, exact: true }) });
  await expect(parts.getByRole('row')).toHaveCount(4);
  await expect(part(`echo tc-${mark}`)).toContainText('allow');
  await expect(part(`echo tc-${mark}`)).toContainText(allowId);
  await expect(part(`touch tc-${mark}.txt`)).toContainText('deny');
  await expect(part(`touch tc-${mark}.txt`)).toContainText(denyId);
  await expect(part('ls')).toContainText('ask');

  const deciding = rules.ruleRow(denyId);
  await expect(deciding).toHaveAttribute('aria-current', 'true');
  await expect(deciding).toContainText('Deciding rule');
  await expect(rules.ruleRow(allowId)).not.toHaveAttribute('aria-current', 'true');

  // A test in plan mode: the mode decides, no rule is highlighted.
  const planned = await rules.runTestCall({ tool: 'bash', params: { command: `echo tc-${mark}` }, mode: 'Plan' });
  await expect(planned.getByRole('heading', { name: /Decision/ })).toContainText('deny');
  await expect(planned).toContainText('Decided by the mode');
  await expect(rules.rules.getByRole('row').filter({ hasText: 'Deciding rule' })).toHaveCount(0);
});
