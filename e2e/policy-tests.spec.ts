// The Policy tests panel: a test that the rules do not satisfy fails when run, showing what it got;
// a save with it is refused and changes nothing; fixed, it passes and saves with the policy.
import { expect, test } from '@playwright/test';
import { PolicyTestsPanel } from './pages/policy-tests-panel';
import { RulesPage } from './pages/rules-page';
import { addRules, getPolicy, marker, updatePolicy, type StoredPolicy } from './support/policy-api';

const mark = marker();
const denyId = `ptests-deny-${mark}`;
const testName = `ptests ${mark} touch`;
const command = `touch ptests-${mark}.txt`;

test.beforeEach(async ({ request }) => {
  await addRules(request, { id: denyId, action: 'deny', tool: 'bash', params: { command: `touch ptests-${mark}*` } });
});

// Other specs share the server and every save runs every test: the rule and its test leave together.
test.afterEach(async ({ request }) => {
  await updatePolicy(
    request,
    (p) => {
      const tests = (p.tests ?? []).filter((t) => !t.name?.includes(mark));
      const { tests: _all, ...rest } = p;
      return { ...rest, rules: p.rules.filter((r) => !r.id?.includes(mark)), ...(tests.length > 0 ? { tests } : {}) };
    },
    'e2e: clean up',
  );
});

test('a failing policy test shows what it got, blocks the save, and saves once fixed', async ({ page, request }) => {
  const rules = new RulesPage(page);
  const tests = new PolicyTestsPanel(page);
  await rules.goto();

  // Expecting allow for a command a deny rule covers: the test fails with the decision it got.
  await tests.addTest({ name: testName, tool: 'bash', params: { command }, expect: 'allow' });
  await expect(tests.row(testName)).toContainText('not run');
  await tests.run();
  const row = tests.row(testName);
  await expect(row).toContainText('fail got deny');
  await expect(row).toContainText(`Denied by rule "${denyId}"`);

  // A save with a failing test is refused and leaves the live policy as it was (unless another
  // spec's save came first: then it is a conflict, and nothing is saved either).
  const first = await tests.save();
  if (first === 'refused') {
    await expect(tests.panel.getByRole('alert').filter({ hasText: 'The policy was not saved' })).toContainText(
      'expected allow, got deny',
    );
    await expect(tests.row(testName)).toContainText('fail got deny');
  }
  expect(JSON.stringify((await getPolicy(request)).policy)).not.toContain(testName);

  // Fixed (it expects what the rules decide), it passes and saves. After a conflict a user reloads,
  // which drops the unsaved tests, and adds the test again; so does this.
  let outcome = first;
  for (let attempt = 0; attempt < 5 && outcome !== 'saved'; attempt++) {
    if (outcome === 'conflict') {
      await tests.reloadAfterConflict();
      await tests.addTest({ name: testName, tool: 'bash', params: { command }, expect: 'allow' });
      await tests.run();
    }
    await tests
      .row(testName)
      .getByRole('button', { name: /^Expect deny in test #\d+/ })
      .click();
    await expect(tests.row(testName)).toContainText('not run');
    await tests.run();
    await expect(tests.row(testName)).toContainText('pass');
    outcome = await tests.save();
    expect(outcome).not.toBe('refused');
  }
  expect(outcome).toBe('saved');
  // The saved version carries the test (read from the history: another spec may save after it).
  const version = Number(
    (
      await tests.panel
        .getByRole('status')
        .filter({ hasText: /^Saved / })
        .textContent()
    )?.match(/version (\d+)/)?.[1],
  );
  const versions = (await (await request.get('/api/policy/versions?limit=200')).json()).items as StoredPolicy[];
  expect(versions.find((v) => v.version === version)?.policy.tests).toContainEqual({
    name: testName,
    call: { tool: 'bash', params: { command } },
    expect: 'deny',
  });
  await expect(tests.panel.getByRole('button', { name: 'Save tests' })).toBeDisabled();
});
