// The README's screenshots, regenerated on demand: SCREENSHOTS=1 npx playwright test
// e2e/docs-screenshots.spec.ts --project chromium. Skipped otherwise (it writes into docs/).
import { expect, test, type Page } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { RunsPage } from './pages/runs-page';
import { decide, startRun, startWaitingRun, uniqueMarker } from './support/runs-api';

const OUT = 'docs/screenshots';

test.skip(!process.env.SCREENSHOTS, 'set SCREENSHOTS=1 to regenerate docs/screenshots');
test.use({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
test.describe.configure({ mode: 'serial' });

async function chatWithApproval(page: Page) {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Message' }).fill('$ echo hello from the docs');
  await page.getByRole('button', { name: 'Send' }).click();
  const dialog = page.getByRole('dialog', { name: 'Permission required' });
  await expect(dialog).toBeVisible();
  // The decision buttons are dimmed until the dialog is armed (half a second after a call appears).
  await expect(dialog).toHaveAttribute('data-armed', 'true');
  return dialog;
}

test('screenshots of every page', async ({ page, request, baseURL }) => {
  // Some history first, so the lists are not empty: an approval, a denial, a policy denial.
  // Oldest first, so the newest (top) rows of the audit show the human decisions.
  const policy = await startRun(baseURL!, '$ sudo apt-get install curl');
  await policy.events.rest();
  const denied = await startWaitingRun(baseURL!, '$ rm -r build/');
  await decide(request, denied, { approved: false, reason: 'Keep the build output for now' });
  const marker = uniqueMarker('docs');
  const approved = await startWaitingRun(baseURL!, `$ echo ${marker}`);
  await decide(request, approved, { approved: true });

  const dialog = await chatWithApproval(page);
  await page.screenshot({ path: `${OUT}/chat-approval.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${OUT}/chat-approval-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  // Left waiting on purpose: the runs page then shows a live run with its Cancel button.
  await expect(dialog).toBeVisible();

  await page.goto('/rules');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(/Loading/)).toHaveCount(0);
  await page.screenshot({ path: `${OUT}/rules.png` });

  const runs = new RunsPage(page);
  await runs.goto();
  await expect(runs.row(marker)).toBeVisible();
  await page.screenshot({ path: `${OUT}/runs.png` });

  const audit = new AuditPage(page);
  await audit.goto();
  await expect(audit.row('Keep the build output for now')).toBeVisible();
  await page.screenshot({ path: `${OUT}/audit.png` });
});
