// The runs page: runs started through the API are listed with their status ("waiting for
// approval" while paused), a live run is cancelled from the page, the list refreshes by itself
// while runs are live, the status filter narrows it (and lives in the URL), and a run's title
// opens its transcript at /?run=<id>.
import { expect, test } from '@playwright/test';
import { RunsPage } from './pages/runs-page';
import { decide, startWaitingRun, uniqueMarker } from './support/runs-api';

test('runs are listed with their status, cancelled from the page, and open as their transcript', async ({
  page,
  request,
  baseURL,
}) => {
  const marker = uniqueMarker('runs-spec');
  const [toCancel, toApprove, finished] = await Promise.all([
    startWaitingRun(baseURL!, `$ echo ${marker}-cancel`),
    startWaitingRun(baseURL!, `$ echo ${marker}-approve`),
    startWaitingRun(baseURL!, `$ echo ${marker}-done`),
  ]);
  await decide(request, finished, { approved: true });

  try {
    const runs = new RunsPage(page);
    await runs.goto();
    await runs.expectStatus(`${marker}-cancel`, 'waiting for approval');
    await runs.expectStatus(`${marker}-approve`, 'waiting for approval');
    await runs.expectStatus(`${marker}-done`, 'done');
    await expect(runs.row(`${marker}-done`).getByRole('button', { name: /^Cancel run/ })).toHaveCount(0);

    await runs.cancel(`${marker}-cancel`);
    await runs.expectStatus(`${marker}-cancel`, 'cancelled');
    // The Cancel button is gone, so focus lands on the run's title rather than on the page.
    await expect(runs.transcriptLink(`$ echo ${marker}-cancel`)).toBeFocused();
    await expect(runs.row(`${marker}-cancel`).getByRole('button', { name: /^Cancel run/ })).toHaveCount(0);

    // Decided elsewhere while the page is open: the list refreshes by itself while runs are live.
    await decide(request, toApprove, { approved: true });
    await expect(runs.row(`${marker}-approve`).getByRole('cell').nth(1)).toHaveText('done', { timeout: 10_000 });

    await runs.filterByStatus('cancelled');
    await expect(page).toHaveURL(/\/runs\?status=cancelled$/);
    await runs.expectStatus(`${marker}-cancel`, 'cancelled');
    await expect(runs.row(`${marker}-done`)).toHaveCount(0);
    await page.reload();
    await expect(runs.statusFilter).toHaveValue('cancelled');
    await expect(runs.row(`${marker}-cancel`)).toBeVisible();

    await runs.filterByStatus('All statuses');
    const link = runs.transcriptLink(`$ echo ${marker}-done`);
    await expect(link).toHaveAttribute('href', `/?run=${finished.runId}`);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`/\\?run=${finished.runId}$`));
    // The chat restores that run's transcript: the approved call with its output.
    const call = page.getByRole('article', { name: 'bash call' });
    await expect(call).toContainText('done');
    await expect(call).toContainText(`${marker}-done`);
  } finally {
    for (const run of [toCancel, toApprove, finished]) run.close();
  }
});
