// An import previews what it changes (rules added, removed, changed; built-in safety denies it
// drops called out) and replaces nothing until the replacement is confirmed.
import { expect, test } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { getPolicy, marker, ruleIds } from './support/policy-api';

const mark = marker();

test('an import that drops the safety denies shows its diff and replaces nothing until confirmed', async ({
  page,
  request,
}) => {
  const rules = new RulesPage(page);
  await rules.goto();
  const before = await getPolicy(request);
  expect(ruleIds(before.policy)).toContain('no-private-network');
  const kept = before.policy.rules.find((r) => r.id === 'read-workspace');
  expect(kept).toBeDefined();
  const doc = {
    defaultAction: 'allow',
    rules: [
      { id: `diff-allow-${mark}`, action: 'allow', tool: 'bash', params: { command: 'ls *' } },
      { ...kept, description: `changed by ${mark}` },
    ],
  };
  await rules.previewImport(JSON.stringify(doc));
  const diff = rules.importExport.getByRole('group', { name: 'Changes the import makes' });
  await expect(diff).toContainText(/1 rule added, \d+ removed, 1 changed, 0 unchanged, default action ask → allow\b/);
  await expect(diff.getByRole('region', { name: 'Added' })).toContainText(`diff-allow-${mark}`);
  await expect(diff.getByRole('region', { name: 'Removed' })).toContainText('no-private-network');
  await expect(diff.getByRole('region', { name: 'Changed (after the import)' })).toContainText('read-workspace');
  await expect(diff.getByRole('status').filter({ hasText: /built-in safety deny rules/ })).toContainText(
    'no-private-network',
  );

  // Asked, then cancelled (button and Escape): the stored policy is untouched.
  await rules.importExport.getByRole('button', { name: 'Import as new version' }).click();
  await expect(rules.importDialog).toBeVisible();
  await expect(rules.importDialog).toContainText(/All rules of version \d+ are replaced: 1 rule added/);
  await expect(rules.importDialog).toContainText('no-private-network');
  await expect(rules.importDialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await rules.importDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rules.importDialog).toBeHidden();
  await rules.importExport.getByRole('button', { name: 'Import as new version' }).click();
  await page.keyboard.press('Escape');
  await expect(rules.importDialog).toBeHidden();
  const after = await getPolicy(request);
  expect(ruleIds(after.policy), 'nothing replaced without the confirmation').toContain('no-private-network');
  expect(ruleIds(after.policy)).not.toContain(`diff-allow-${mark}`);
  expect(after.policy.defaultAction).toBe(before.policy.defaultAction);
  await expect(rules.importExport.getByRole('status').filter({ hasText: /Imported \d+ rules/ })).toHaveCount(0);
});
