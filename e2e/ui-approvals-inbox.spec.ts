// Approvals away from the chat: the inbox receives a relay raised elsewhere and decides it; the
// approval page works at phone width; a notification is raised for a hidden tab and opens the
// approval page; without the Notification API the page says so and the inbox still works; axe clean.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { cancelRun, startWaitingRun, uniqueMarker } from './support/runs-api';

const inboxItem = (page: Page, marker: string) =>
  page.getByRole('list', { name: 'Pending approvals' }).getByRole('listitem').filter({ hasText: marker });

async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('the inbox shows a relay raised from another context without a reload, and decides it', async ({
  page,
  baseURL,
  request,
}) => {
  await page.goto('/approvals');
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /pending$/ })).toBeVisible();
  const marker = uniqueMarker('inbox');
  const run = await startWaitingRun(baseURL!, `$ echo ${marker}`);
  try {
    const item = inboxItem(page, marker);
    await expect(item).toBeVisible();
    // The header counts it on every page, and so does the tab title.
    await expect(page.getByRole('link', { name: /Approvals \d+ pending/ })).toBeVisible();
    await expect(page).toHaveTitle(/^\(\d+\+?\) /);
    await item.getByRole('button', { name: 'Details and decision' }).click();
    await expect(item.getByText('Why it asks')).toBeVisible();
    await expect(item.getByLabel('Parameters')).toContainText(marker);
    await item.getByRole('button', { name: 'Approve Once' }).click();
    await expect(page.getByText(`bash echo ${marker}: approved by you`)).toBeVisible();
    await expect(item).toHaveCount(0);
    const rest = await run.events.rest();
    expect(rest.at(-1)?.event).toBe('done');
  } finally {
    run.close();
    await cancelRun(request, run.runId).catch((error: Error) => expect(error.message).toMatch(/409/));
  }
});

test('a relay decided elsewhere leaves the inbox with a notice of who decided', async ({ page, baseURL, request }) => {
  await page.goto('/approvals');
  const marker = uniqueMarker('elsewhere');
  const run = await startWaitingRun(baseURL!, `$ echo ${marker}`);
  try {
    await expect(inboxItem(page, marker)).toBeVisible();
    const answer = await request.post(`/api/chat/relay/${run.relayId}`, {
      data: { sessionId: run.sessionId, response: { approved: false, reason: 'not now' } },
    });
    expect(answer.ok()).toBe(true);
    await expect(inboxItem(page, marker)).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: `echo ${marker}: Denied by ` })).toBeVisible();
  } finally {
    run.close();
  }
});

test.describe('the approval page at phone width', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });

  for (const [button, said, status] of [
    ['Approve Once', 'Approved. The agent goes on.', 'Approved'],
    ['Deny', 'Denied. The agent is told why.', 'Denied'],
  ] as const) {
    test(`${button}: no sideways scroll, large buttons, then what happened and by whom`, async ({ page, baseURL }) => {
      const marker = uniqueMarker('phone');
      const run = await startWaitingRun(
        baseURL!,
        `$ echo ${marker} && echo a-rather-long-argument-that-must-wrap-on-a-phone-screen`,
      );
      try {
        await page.goto(`/approvals/${run.relayId}`);
        const action = page.getByRole('button', { name: button });
        await expect(action).toBeVisible();
        // Nothing wider than the phone: the layout viewport would grow with it (isMobile), so compare with 390.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
        const box = await action.boundingBox();
        expect(box!.height).toBeGreaterThanOrEqual(44);
        expect(await seriousViolations(page)).toEqual([]);
        await action.tap();
        await expect(page.getByText(said)).toBeVisible();
        await page.reload();
        await expect(page.getByText(new RegExp(`^${status} by \\S+ on `))).toBeVisible();
        expect((await run.events.rest()).at(-1)?.event).toBe('done');
      } finally {
        run.close();
      }
    });
  }

  test('an unknown approval says so', async ({ page }) => {
    await page.goto('/approvals/no-such-relay');
    await expect(page.getByText('There is no such approval, or it is not yours to see.')).toBeVisible();
  });
});

// The next test reuses this browser context (playwright.config.ts: reuseContext), whose reset keeps
// permissions: the one granted here is taken back.
test.afterEach(async ({ context }) => {
  await context.clearPermissions();
});

test('a new relay raises a notification while the tab is hidden, and clicking it opens the approval page', async ({
  page,
  context,
  baseURL,
  request,
}) => {
  await context.grantPermissions(['notifications']);
  // Headless Chromium shows no notification: observe the constructor, and decide when the tab is "hidden".
  await page.addInitScript(() => {
    const w = window as unknown as { __notes: Notification[]; __hidden: boolean; Notification: typeof Notification };
    w.__notes = [];
    w.__hidden = false;
    const Real = w.Notification;
    w.Notification = new Proxy(Real, {
      construct(target, args: [string, NotificationOptions?]) {
        const note = Reflect.construct(target, args) as Notification;
        w.__notes.push(note);
        return note;
      },
    });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => w.__hidden });
  });
  await page.goto('/approvals');
  await page.getByRole('button', { name: 'Turn on notifications' }).click();
  await expect(page.getByText('Notifications are on')).toBeVisible();
  await page.evaluate(() => ((window as unknown as { __hidden: boolean }).__hidden = true));
  const marker = uniqueMarker('notify');
  const run = await startWaitingRun(baseURL!, `$ echo ${marker}`);
  try {
    const noteOf = (m: string) =>
      page.evaluate(
        (m) =>
          (window as unknown as { __notes: Notification[] }).__notes
            .filter((n) => n.body.includes(m))
            .map((n) => ({ title: n.title, body: n.body })),
        m,
      );
    await expect
      .poll(() => noteOf(marker))
      .toEqual([{ title: 'Approval needed: bash', body: `bash wants to run echo ${marker}\nAgent: main` }]);
    await page.evaluate((m) => {
      const note = (window as unknown as { __notes: Notification[] }).__notes.find((n) => n.body.includes(m))!;
      note.onclick?.(new Event('click'));
    }, marker);
    await expect(page).toHaveURL(new RegExp(`/approvals/${run.relayId}$`));
    await expect(page.getByRole('button', { name: 'Approve Once' })).toBeVisible();
  } finally {
    run.close();
    await cancelRun(request, run.runId);
  }
});

test('without the Notification API the inbox says so and still works', async ({ page, baseURL, request }) => {
  await page.addInitScript(() => {
    delete (window as unknown as { Notification?: unknown }).Notification;
  });
  await page.goto('/approvals');
  await expect(page.getByText(/This browser offers no notifications here/)).toBeVisible();
  const marker = uniqueMarker('no-notify');
  const run = await startWaitingRun(baseURL!, `$ echo ${marker}`);
  try {
    await expect(inboxItem(page, marker)).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
  } finally {
    run.close();
    await cancelRun(request, run.runId);
  }
});
