// Two admins, one policy: a save based on a version someone else has replaced is refused with a
// clear notice, and nothing of theirs is overwritten. Reload shows their change.
import { expect, test } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { addRules, getPolicy, marker, removeRules, ruleIds } from './support/policy-api';

const mark = marker();
const mine = `rules-mine-${mark}`;
const theirs = `rules-theirs-${mark}`;

test.afterEach(async ({ request }) => {
  await removeRules(request, mark);
});

test('saving over a newer version shows the conflict notice and overwrites nothing', async ({ page, request }) => {
  const rules = new RulesPage(page);
  await rules.goto();
  const form = await rules.openAddRule();
  await rules.fillRule(form, { id: mine, action: 'deny', tool: 'bash', params: { command: `echo ${mine}*` } });

  const changed = await addRules(request, {
    id: theirs,
    action: 'deny',
    tool: 'bash',
    params: { command: `echo ${theirs}*` },
  });
  await form.getByRole('button', { name: 'Save rule' }).click();

  await expect(rules.conflictNotice).toContainText('Reload to see their change; your edit was not saved.');
  const shown = Number((await rules.conflictNotice.textContent())?.match(/now version (\d+)/)?.[1]);
  expect(shown).toBeGreaterThanOrEqual(changed.version);

  const now = await getPolicy(request);
  expect(now.version).toBeGreaterThanOrEqual(changed.version);
  expect(ruleIds(now.policy)).toContain(theirs);
  expect(ruleIds(now.policy)).not.toContain(mine);

  await rules.reloadAfterConflict();
  await expect(rules.ruleRow(theirs)).toBeVisible();
  await expect(rules.ruleRow(mine)).toHaveCount(0);
  await expect(rules.rules).toContainText(`Version ${now.version}`);
});
