// The rules page as a permissions manager: rules grouped Allow / Ask / Deny with the built-in
// defaults folded, every section one click away in the section nav, grants for everyone called
// "Everyone", and at phone width each rule and grant a card instead of a sideways-scrolling row.
import { expect, test, type Locator } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { listGrants, revokeGrant } from './support/grants-api';
import { addRules, marker, removeRules } from './support/policy-api';
import { startWaitingRun, uniqueMarker } from './support/runs-api';

const mark = marker();
const askId = `layout-ask-${mark}`;

test.beforeAll(async ({ request }) => {
  await addRules(request, {
    id: askId,
    action: 'ask',
    tool: 'write_file',
    params: { path: `${askId}/**` },
    description: 'A rule of the layout spec with a long description to wrap',
  });
});
test.afterAll(async ({ request }) => {
  await removeRules(request, mark);
});

test('rules are grouped Allow / Ask / Deny, built-in defaults folded, and the nav reaches every section', async ({
  page,
}) => {
  const rules = new RulesPage(page);
  await rules.goto();
  await expect(rules.group('Ask').getByRole('row').filter({ hasText: askId })).toBeVisible();
  await expect(rules.group('Allow').getByRole('row').filter({ hasText: askId })).toHaveCount(0);

  const deny = rules.group('Deny');
  const builtinRow = deny.getByRole('row').filter({ hasText: 'no-private-network' });
  await expect(builtinRow).toBeHidden();
  await deny.getByText(/^Built-in deny defaults \(\d+\)$/).click();
  await expect(builtinRow).toBeVisible();

  for (const [link, region] of [
    ['History', rules.history],
    ['Grants', rules.grants],
    ['Import and export', rules.importExport],
    ['Test a call', rules.testCall],
  ] as const) {
    await rules.sectionLink(link).click();
    await expect(region.getByRole('heading', { level: 2 })).toBeInViewport();
  }
  await expect(page).toHaveURL(/#test-call$/);
});

test('a grant for everyone is shown as "Everyone"', async ({ page, request, baseURL }) => {
  const command = `echo ${uniqueMarker('layout-everyone')}`;
  const run = await startWaitingRun(baseURL!, `$ ${command}`);
  const answer = await request.post(`/api/chat/relay/${run.relayId}`, {
    data: {
      sessionId: run.sessionId,
      response: {
        approved: true,
        always: true,
        scope: 'global',
        rule: { action: 'allow', tool: 'bash', params: { command } },
      },
    },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  run.close();
  const grant = (await listGrants(request)).find((g) => g.rule.params?.command === command);
  expect(grant?.scope).toBe('global');
  try {
    const rules = new RulesPage(page);
    await rules.goto();
    const row = rules.grantRow(command);
    await expect(row.getByText('Everyone', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: /^Revoke grant/ })).toHaveAccessibleName(/\(everyone\)$/);
  } finally {
    await revokeGrant(request, grant!.id);
  }
});

test.describe('at phone width', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  /** A row shown as a card: laid out as a block, its cells stacked, nothing wider than the screen. */
  async function expectCard(row: Locator) {
    await expect(row).toBeVisible();
    const shape = await row.evaluate((tr) => {
      const cells = Array.from(tr.querySelectorAll('td'));
      const wrap = tr.closest('.ui-table-wrap');
      return {
        display: getComputedStyle(tr).display,
        stacked: cells.every(
          (td, i) => i === 0 || td.getBoundingClientRect().top >= cells[i - 1]!.getBoundingClientRect().bottom - 1,
        ),
        right: tr.getBoundingClientRect().right,
        scrollsSideways: wrap ? wrap.scrollWidth > wrap.clientWidth + 1 : false,
      };
    });
    expect(shape).toEqual({ display: 'block', stacked: true, right: expect.any(Number), scrollsSideways: false });
    expect(shape.right).toBeLessThanOrEqual(390);
  }

  test('each rule is a card with its labels', async ({ page }) => {
    const rules = new RulesPage(page);
    await rules.goto();
    const row = rules.ruleRow(askId);
    await expectCard(row);
    await expect(row.locator('td[data-label="Tool"]')).toContainText('write_file');
  });
});
