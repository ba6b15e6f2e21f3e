// The audit page's tool filter: one run's calls of two tools (a shell command the policy denies, a
// listing it allows); filtering by a tool lists only that tool's entries, with or without the run
// filter, and the filter lives in the URL.
import { expect, test } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { startRun, uniqueMarker } from './support/runs-api';

test('filtering the audit by tool lists only that tool’s entries', async ({ page, baseURL }) => {
  const marker = uniqueMarker('audit-tool');
  const run = await startRun(baseURL!, `$ sudo ls /tmp/${marker}\nls ${marker}`);
  expect((await run.events.rest()).at(-1)?.event).toBe('done');

  const audit = new AuditPage(page);
  await audit.goto(`?run=${run.runId}`);
  await expect(audit.rows).toHaveCount(2);

  await audit.filter({ run: run.runId, tool: 'list_files' });
  await expect(page).toHaveURL(/[?&]tool=list_files(&|$)/);
  await expect(audit.rows).toHaveCount(1);
  await expect(audit.cell(audit.rows, 'Tool')).toHaveText('list_files');
  await expect(audit.cell(audit.rows, 'Action')).toHaveText('allow');
  await expect(audit.cell(audit.rows, 'Why')).toContainText('list-workspace');

  await audit.filter({ run: run.runId, tool: 'bash' });
  await expect(audit.rows).toHaveCount(1);
  await expect(audit.cell(audit.rows, 'Tool')).toHaveText('bash');
  await expect(audit.cell(audit.rows, 'Action')).toHaveText('deny');

  // The tool alone: every entry listed is of that tool (other specs' runs included).
  await audit.filter({ tool: 'list_files' });
  await expect(audit.field('Tool')).toHaveValue('list_files');
  await expect(audit.rows.first()).toBeVisible();
  await expect(audit.rows.filter({ hasNot: page.getByRole('cell', { name: 'list_files', exact: true }) })).toHaveCount(
    0,
  );
});
