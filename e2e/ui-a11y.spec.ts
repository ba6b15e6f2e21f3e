// Accessibility: an axe scan (WCAG 2.0/2.1 A and AA) of every page, in the light and the dark
// colour scheme, at desktop and phone widths, and of the chat with its approval dialog open.
// Serious and critical violations fail the test; the message lists each one with its targets.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { RunsPage } from './pages/runs-page';
import { cancelRun, decide, type StartedRun, startWaitingRun, uniqueMarker } from './support/runs-api';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SCHEMES = ['light', 'dark'] as const;
const PHONE = { width: 375, height: 740 };

async function expectNoSeriousViolations(page: Page, what: string) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious
    .map((v) => `- ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`).join('\n')}`)
    .join('\n');
  expect(serious.map((v) => v.id), `${what}: serious or critical axe violations\n${report}`).toEqual([]);
}

/** Each page, with what to wait for before scanning (its content, not a fixed time). */
const PAGES: Record<string, (page: Page) => Promise<void>> = {
  '/': async (page) => {
    await page.goto('/');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  },
  '/rules': async (page) => {
    await page.goto('/rules');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByText(/Loading/)).toHaveCount(0);
  },
  '/runs': async (page) => {
    const runs = new RunsPage(page);
    await runs.goto();
    await expect(runs.table).toBeVisible();
  },
  '/audit': async (page) => {
    const audit = new AuditPage(page);
    await audit.goto();
    await expect(audit.table).toBeVisible();
  },
  '/login': async (page) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  },
  '/users': async (page) => {
    await page.goto('/users');
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  },
};

// Something in every list, so the tables, badges and the Cancel button are scanned too.
let waiting: (StartedRun & { relayId: string }) | undefined;
test.beforeAll(async ({ request, baseURL }) => {
  const marker = uniqueMarker('a11y-seed');
  const denied = await startWaitingRun(baseURL!, `$ echo ${marker}-denied`);
  await decide(request, denied, { approved: false, reason: 'a11y seed' });
  waiting = await startWaitingRun(baseURL!, `$ echo ${marker}-waiting`);
});
test.afterAll(async ({ request }) => {
  if (!waiting) return;
  waiting.close();
  await cancelRun(request, waiting.runId);
});

for (const scheme of SCHEMES) {
  test.describe(`${scheme} colour scheme`, () => {
    test.use({ colorScheme: scheme });

    for (const [path, open] of Object.entries(PAGES)) {
      test(`${path} has no serious axe violations`, async ({ page }) => {
        await open(page);
        await expectNoSeriousViolations(page, `${path} (${scheme})`);
      });
    }

    test('the chat with the approval dialog open has no serious axe violations', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('textbox', { name: 'Message' }).fill(`$ echo ${uniqueMarker('a11y-chat')}`);
      await page.getByRole('button', { name: 'Send' }).click();
      const dialog = page.getByRole('dialog', { name: 'Permission required' });
      await expect(dialog).toBeVisible();
      await expectNoSeriousViolations(page, `chat approval dialog (${scheme})`);
      await dialog.getByRole('button', { name: 'Deny' }).click();
      await expect(dialog).toBeHidden();
    });

    test('the cancel-run confirmation has no serious axe violations', async ({ page }) => {
      const runs = new RunsPage(page);
      await runs.goto('?status=waiting');
      await runs.table.getByRole('button', { name: /^Cancel run/ }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Cancel this run?' });
      await expect(dialog).toBeVisible();
      await expectNoSeriousViolations(page, `cancel-run dialog (${scheme})`);
      await dialog.getByRole('button', { name: 'Keep running' }).click();
      await expect(dialog).toBeHidden();
    });
  });
}

test.describe('phone width', () => {
  test.use({ viewport: PHONE });
  for (const scheme of SCHEMES) {
    for (const [path, open] of Object.entries(PAGES)) {
      test(`${path} at 375 px (${scheme}) has no serious axe violations`, async ({ page }) => {
        await page.emulateMedia({ colorScheme: scheme });
        await open(page);
        await expectNoSeriousViolations(page, `${path} at 375 px (${scheme})`);
      });
    }
  }
});
