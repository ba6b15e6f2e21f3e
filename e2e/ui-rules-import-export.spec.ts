// Import and export: a snake_case policy pasted in is previewed (converted, nothing saved), then
// imported as a new version; the exported JSON imports again to exactly the same rules.
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import type { Policy, Rule } from '../lib/policy/types';
import { RulesPage } from './pages/rules-page';
import { getPolicy, marker, removeRules, ruleIds, updatePolicy, type StoredPolicy } from './support/policy-api';

const mark = marker();
const denyId = `rules-import-deny-${mark}`;
const askId = `rules-import-ask-${mark}`;
let original: StoredPolicy;

/** The canonical rule in the snake_case format (`approve` means ask). */
function toSnake(rule: Rule): Record<string, unknown> {
  const { action, timeoutS, onTimeout, once: _once, ...rest } = rule;
  return {
    ...rest,
    action: action === 'ask' ? 'approve' : action,
    ...(timeoutS ? { timeout_s: timeoutS } : {}),
    ...(onTimeout ? { on_timeout: onTimeout } : {}),
  };
}

test.beforeEach(async ({ request }) => {
  original = await getPolicy(request);
});

test.afterEach(async ({ request }) => {
  await removeRules(request, mark);
  // The snake_case format has no risk defaults: put the original ones back.
  await updatePolicy(
    request,
    (p) => ({ ...p, riskDefaults: original.policy.riskDefaults }),
    'e2e: restore risk defaults',
  );
});

/** The spec's snake_case document: the policy on screen plus two rules of its own. */
function snakeDoc(policy: Policy) {
  return {
    default_action: 'approve',
    rules: [
      ...policy.rules.map(toSnake),
      { id: denyId, tool: 'bash', params: { command: `echo ${denyId}*` }, action: 'deny' },
      { id: askId, tool: 'write_file', params: { path: `${askId}/**` }, action: 'approve', timeout_s: 45 },
    ],
  };
}

test('a pasted snake_case policy is previewed, imported, exported and re-imported to the same rules', async ({
  page,
  request,
}) => {
  const rules = new RulesPage(page);
  await rules.goto();
  const first = snakeDoc((await getPolicy(request)).policy);
  await rules.previewImport(JSON.stringify(first, null, 2));
  const preview = rules.importExport.getByRole('status').filter({ hasText: 'Preview:' });
  await expect(preview).toContainText(`${first.rules.length} rules, default action ask`);
  await expect(rules.importExport.getByLabel('Converted policy')).toContainText('"timeoutS": 45');
  expect(ruleIds((await getPolicy(request)).policy), 'a preview saves nothing').not.toContain(denyId);

  // An import replaces every rule: build it from the version on screen, and again after a conflict.
  let imported: number | undefined;
  for (let attempt = 0; attempt < 5 && imported === undefined; attempt++) {
    const current = await getPolicy(request);
    if ((await rules.shownVersion()) !== current.version) {
      await rules.goto();
      continue;
    }
    imported = await rules.importPolicy(JSON.stringify(snakeDoc(current.policy)));
  }
  expect(imported, 'other specs kept saving the policy').toBeDefined();
  await expect(rules.rules).toContainText(`Version ${imported} ·`);
  await expect(rules.ruleRow(askId)).toContainText('ask');
  await expect(rules.ruleRow(askId)).toContainText('45 s');
  await expect(rules.ruleRow(denyId)).toContainText('deny');

  let reimported: number | undefined;
  let exported: Policy | undefined;
  for (let attempt = 0; attempt < 5 && reimported === undefined; attempt++) {
    const download = page.waitForEvent('download');
    await rules.importExport.getByRole('button', { name: 'Download JSON' }).click();
    exported = JSON.parse(await readFile(await (await download).path(), 'utf8')) as Policy;
    reimported = await rules.importPolicy(JSON.stringify(exported));
  }
  expect(reimported, 'other specs kept saving the policy').toBeGreaterThan(imported!);
  expect(exported?.rules.find((r) => r.id === askId)).toEqual({
    id: askId,
    action: 'ask',
    tool: 'write_file',
    params: { path: `${askId}/**` },
    timeoutS: 45,
  });
  await rules.importExport.getByRole('button', { name: 'Show JSON' }).click();
  await expect(rules.importExport.getByLabel('Current policy (JSON)')).toContainText(denyId);

  // Read that very version: another spec may have saved a newer one since.
  const versions = (await (await request.get('/api/policy/versions?limit=200')).json()).items as StoredPolicy[];
  const saved = versions.find((v) => v.version === reimported);
  expect(saved?.policy.rules).toEqual(exported?.rules);
  expect(saved?.policy.defaultAction).toBe(exported?.defaultAction);
});
