// Version history: every save is listed; restoring an old version saves it as a new, current
// version (history is never rewritten).
// Specs share one server, and a restore replaces the whole policy: so this spec restores only a
// version that differs from the one on screen by its own rule (two consecutive saves of its own),
// and starts over if another spec saved in between.
import { expect, test } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { addRules, getPolicy, marker, removeRules, ruleIds } from './support/policy-api';

const mark = marker();

test.afterEach(async ({ request }) => {
  await removeRules(request, mark);
});

test('the history lists the versions and restoring one makes it current as a new version', async ({
  page,
  request,
}) => {
  const rules = new RulesPage(page);
  for (let attempt = 0; attempt < 4; attempt++) {
    const kept = `rules-history-${mark}-${attempt}-kept`;
    const dropped = `rules-history-${mark}-${attempt}-dropped`;
    const before = await addRules(request, {
      id: kept,
      action: 'deny',
      tool: 'bash',
      params: { command: `echo ${kept}*` },
    });
    const after = await addRules(request, {
      id: dropped,
      action: 'deny',
      tool: 'bash',
      params: { command: `echo ${dropped}*` },
    });
    if (after.version !== before.version + 1) continue;
    await rules.goto();
    if ((await rules.shownVersion()) !== after.version) continue;

    await expect(rules.versionRow(after.version)).toContainText('current');
    const old = rules.versionRow(before.version);
    await expect(old).toContainText('e2e: add rules');
    await expect(old).not.toContainText('current');
    await expect(rules.ruleRow(dropped)).toBeVisible();

    const restored = await rules.restoreVersion(before.version);
    if (restored === undefined) continue;
    expect(restored).toBe(after.version + 1);
    await expect(rules.versionRow(restored)).toContainText('current');
    await expect(rules.versionRow(restored)).toContainText(`Restored version ${before.version}`);
    await expect(rules.versionRow(after.version)).not.toContainText('current');
    await expect(rules.rules).toContainText(`Version ${restored} ·`);
    await expect(rules.ruleRow(kept)).toBeVisible();
    await expect(rules.ruleRow(dropped)).toHaveCount(0);

    const versions = (await (await request.get('/api/policy/versions?limit=200')).json()).items as {
      version: number;
      policy: { rules: { id?: string }[] };
    }[];
    const saved = versions.find((v) => v.version === restored);
    expect(saved?.policy.rules.map((r) => r.id)).toEqual(
      versions.find((v) => v.version === before.version)?.policy.rules.map((r) => r.id),
    );
    expect(ruleIds((await getPolicy(request)).policy)).not.toContain(dropped);
    return;
  }
  throw new Error('other specs kept saving the policy; could not restore in isolation');
});
