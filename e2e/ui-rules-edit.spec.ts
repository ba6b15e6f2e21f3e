// Editing an existing rule through the form (the saved version has the new fields, the rule is
// replaced, not added again), and the Test-a-call panel's agent field: a rule scoped to one agent
// decides that agent's call, and only that agent's.
import { expect, test, type Locator } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { addRules, getPolicy, marker, removeRules } from './support/policy-api';

const mark = marker();
const id = `rules-edit-${mark}`;
const allowId = `rules-agent-allow-${mark}`;
const denyId = `rules-agent-deny-${mark}`;
const agent = `auditor-${mark}`;

// One save adds the rules of both tests and one removes them: every save here can make a
// concurrent rule spec's save conflict (and retry), so this file makes as few as it can.
test.beforeAll(async ({ request }) => {
  await addRules(
    request,
    { id, action: 'allow', tool: 'bash', params: { command: `echo before-${mark}*` } },
    { id: allowId, action: 'allow', tool: 'bash', params: { command: `echo agent-${mark}*` } },
    { id: denyId, action: 'deny', tool: 'bash', agent, params: { command: `echo agent-${mark}*` } },
  );
});

test.afterAll(async ({ request }) => {
  await removeRules(request, mark);
});

test('editing a rule saves the changed fields as a new version and the table shows them', async ({ page, request }) => {
  const rules = new RulesPage(page);
  await rules.goto();
  await expect(rules.ruleRow(id)).toContainText('allow');

  // Another spec may save in between: like a user, reload after the conflict and edit again.
  let saved: Locator | undefined;
  for (let attempt = 0; attempt < 5 && !saved; attempt++) {
    await rules.rules.getByRole('button', { name: `Edit rule ${id}`, exact: true }).click();
    const form = rules.form(`Edit rule ${id}`);
    // The form opens with the rule's own values.
    await expect(form.getByLabel('Action', { exact: true })).toHaveValue('allow');
    await expect(form.getByLabel('Tool', { exact: true })).toHaveValue('bash');
    await expect(form.getByLabel('Parameter 1 pattern')).toHaveValue(`echo before-${mark}*`);
    await form.getByLabel('Action', { exact: true }).selectOption('ask');
    await form.getByLabel('Timeout (seconds)').fill('30');
    await form.getByLabel('Parameter 1 pattern').fill(`echo after-${mark}*`);
    await form.getByRole('button', { name: 'Save rule' }).click();
    const done = rules.rules.getByRole('status').filter({ hasText: `Saved rule ${id}.` });
    await expect(done.or(rules.conflictNotice)).toBeVisible();
    if (await done.isVisible()) saved = done;
    else await rules.reloadAfterConflict();
  }
  expect(saved, 'other specs kept saving the policy').toBeDefined();
  await expect(rules.form(`Edit rule ${id}`)).toBeHidden();

  const stored = (await getPolicy(request)).policy.rules.filter((r) => r.id === id);
  expect(stored).toEqual([
    { id, action: 'ask', tool: 'bash', params: { command: `echo after-${mark}*` }, timeoutS: 30 },
  ]);

  const row = rules.ruleRow(id);
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText('ask');
  await expect(row).toContainText(`command: echo after-${mark}*`);
  await expect(row).toContainText('30 s');
  await expect(row).not.toContainText(`before-${mark}`);
});

test('Test a call: a rule scoped to an agent decides that agent’s call only', async ({ page }) => {
  const rules = new RulesPage(page);
  await rules.goto();
  await expect(rules.ruleRow(denyId)).toContainText(agent);
  const call = { tool: 'bash', params: { command: `echo agent-${mark}` } };

  /** Runs the test call and checks its decision; again if another spec's save made the result stale. */
  const expectDecision = async (forAgent: string | undefined, action: 'allow' | 'deny', ruleId: string) => {
    await expect(async () => {
      const decision = await rules.runTestCall({ ...call, agent: forAgent });
      await expect(decision.getByRole('heading', { name: /Decision/ })).toContainText(action, { timeout: 2_000 });
      await expect(decision).toContainText(`deciding rule ${ruleId}`, { timeout: 2_000 });
      await expect(rules.ruleRow(ruleId)).toHaveAttribute('aria-current', 'true', { timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
  };

  await expectDecision(undefined, 'allow', allowId);
  await expectDecision(agent, 'deny', denyId);
  await expect(rules.ruleRow(allowId)).not.toHaveAttribute('aria-current', 'true');
  await expectDecision('reviewer', 'allow', allowId);
});
