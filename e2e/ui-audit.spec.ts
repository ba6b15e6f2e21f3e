// The audit page: decisions made through the API (a human approval, a human denial with a
// reason, a policy denial) are listed with who decided and why; the filters (run, action, who)
// narrow the log and live in the URL; the API's cursor pages through it.
import { expect, test } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { decide, humanDecider, startRun, startWaitingRun, uniqueMarker } from './support/runs-api';

test('audit lists the decisions with who and why', async ({ page, request, baseURL }) => {
  const marker = uniqueMarker('audit-spec');
  const reason = `not today ${marker}`;
  const [approved, denied, policyDenied] = await Promise.all([
    startWaitingRun(baseURL!, `$ echo ${marker}-yes`),
    startWaitingRun(baseURL!, `$ echo ${marker}-no`),
    startRun(baseURL!, `$ sudo ls /tmp/${marker}`),
  ]);
  await decide(request, approved, { approved: true });
  await decide(request, denied, { approved: false, reason });
  expect((await policyDenied.events.rest()).at(-1)?.event).toBe('done');
  const human = await humanDecider(request);

  const audit = new AuditPage(page);
  await audit.goto();

  // By run: the human's denial, with who and why, next to the policy's "ask".
  await audit.filter({ run: denied.runId });
  await expect(page).toHaveURL(new RegExp(`[?&]run=${denied.runId}`));
  await expect(audit.rows).toHaveCount(2);
  const denial = audit.row(reason);
  await expect(audit.cell(denial, 'Action')).toHaveText('deny');
  await expect(audit.cell(denial, 'Who')).toHaveText(human);
  await expect(audit.cell(denial, 'Why')).toHaveText(reason);
  const asked = audit.rows.filter({ hasNot: page.getByText(reason) });
  await expect(audit.cell(asked, 'Action')).toHaveText('ask');
  await expect(audit.cell(asked, 'Tool')).toHaveText('bash');

  // By run and action: only the human's approval of the other run.
  await audit.filter({ run: approved.runId, action: 'allow' });
  await expect(audit.rows).toHaveCount(1);
  await expect(audit.cell(audit.rows, 'Who')).toHaveText(human);
  await expect(audit.cell(audit.rows, 'Why')).toHaveText('approved');

  // By run and who: the policy's own denial, naming the rule that decided.
  await audit.filter({ run: policyDenied.runId, who: 'policy' });
  await expect(page).toHaveURL(/[?&]who=policy/);
  await expect(audit.rows).toHaveCount(1);
  await expect(audit.cell(audit.rows, 'Action')).toHaveText('deny');
  await expect(audit.cell(audit.rows, 'Who')).toHaveText('policy');
  await expect(audit.cell(audit.rows, 'Why')).toContainText('rule no-privilege-or-disk-tools');
  await audit.rows.getByText('Params').click();
  await expect(audit.rows.getByLabel('Params')).toContainText(`sudo ls /tmp/${marker}`);

  // The filter lives in the URL: a reload (or a shared link) shows the same view.
  await page.reload();
  await expect(audit.field('Run')).toHaveValue(policyDenied.runId);
  await expect(audit.field('Who')).toHaveValue('policy');
  await expect(audit.rows).toHaveCount(1);
  await audit.filter({ run: policyDenied.runId, who: human });
  await expect(page.getByText('No entries match these filters.')).toBeVisible();

  // By time: nothing from tomorrow on; everything of the run before tomorrow.
  const tomorrow = new Date(Date.now() + 86_400_000);
  const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  await audit.filter({ run: denied.runId, from: local });
  await expect(page.getByText('No entries match these filters.')).toBeVisible();
  await audit.filter({ run: denied.runId, to: local });
  await expect(audit.rows).toHaveCount(2);

  // Pagination: one entry per page, the API's cursor fetches the older one.
  await audit.goto(`?run=${approved.runId}&limit=1`);
  await expect(audit.rows).toHaveCount(1);
  await expect(audit.cell(audit.rows, 'Action')).toHaveText('allow');
  await audit.loadMore.click();
  await expect(audit.rows).toHaveCount(2);
  await expect(audit.cell(audit.rows.nth(1), 'Action')).toHaveText('ask');
  await expect(audit.loadMore).toBeHidden();
});
