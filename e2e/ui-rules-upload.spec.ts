// Import by file upload: a policy file chosen in the import panel fills the text to import, its
// preview counts the rules, and importing it stores them as a new version shown in the table.
import { expect, test } from '@playwright/test';
import type { Policy } from '../lib/policy/types';
import { RulesPage } from './pages/rules-page';
import { getPolicy, marker, removeRules, ruleIds } from './support/policy-api';

let mark: string;

test.beforeEach(() => {
  mark = marker();
});

test.afterEach(async ({ request }) => {
  await removeRules(request, mark);
});

test('an uploaded policy file is previewed and imported as a new version', async ({ page, request }) => {
  const id = `rules-upload-${mark}`;
  const rules = new RulesPage(page);
  await rules.goto();
  const fileInput = rules.importExport.getByLabel('Or upload a policy file');
  const textArea = rules.importExport.getByLabel('Policy to import');

  // An import replaces every rule: the file is the policy on screen plus one rule, rebuilt (and
  // chosen again) when another spec saved in between.
  let file: Policy | undefined;
  let imported: number | undefined;
  for (let attempt = 0; attempt < 5 && imported === undefined; attempt++) {
    const current = await getPolicy(request);
    if ((await rules.shownVersion()) !== current.version) {
      await rules.goto();
      continue;
    }
    file = {
      ...current.policy,
      rules: [...current.policy.rules, { id, action: 'deny', tool: 'write_file', params: { path: `${id}/**` } }],
    };
    await fileInput.setInputFiles({
      name: 'policy.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(file, null, 2)),
    });
    await expect(textArea).toHaveValue(new RegExp(`"id": "${id}"`));
    await rules.importExport.getByRole('button', { name: 'Preview import' }).click();
    await expect(rules.importExport.getByRole('status').filter({ hasText: 'Preview:' })).toContainText(
      `${file.rules.length} rules, default action ${file.defaultAction}`,
    );
    expect(ruleIds((await getPolicy(request)).policy), 'a preview saves nothing').not.toContain(id);

    imported = await rules.confirmImport();
  }
  expect(imported, 'other specs kept saving the policy').toBeDefined();
  await expect(textArea).toHaveValue('');
  await expect(rules.rules).toContainText(`Version ${imported} ·`);
  await expect(rules.ruleRow(id)).toContainText('deny');
  await expect(rules.ruleRow(id)).toContainText(`path: ${id}/**`);

  // That very version holds the file's rules (another spec may have saved a newer one since).
  const versions = (await (await request.get('/api/policy/versions?limit=200')).json()).items as {
    version: number;
    policy: Policy;
  }[];
  expect(versions.find((v) => v.version === imported)?.policy.rules).toEqual(file!.rules);
});
