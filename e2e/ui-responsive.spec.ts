// Phone width: at 375 px no page scrolls sideways as a whole (wide tables scroll inside their own
// box, long words wrap). Each page is loaded with content in its lists (a run whose long command
// was denied with a long reason, and its audit entries), the chat also with that run's transcript.
import { expect, test, type Page } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { RunsPage } from './pages/runs-page';
import { decide, startWaitingRun, uniqueMarker } from './support/runs-api';

test.use({ viewport: { width: 375, height: 740 } });

let seeded: string | undefined;

/** Each page, with what to wait for before measuring (its content, not a fixed time). */
const PAGES: Record<string, (page: Page) => Promise<void>> = {
  '/': async (page) => {
    await page.goto('/');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  },
  '/ with a transcript': async (page) => {
    await page.goto(`/?run=${seeded}`);
    await expect(page.getByRole('article', { name: 'bash call' }).getByText('denied', { exact: true })).toBeVisible();
  },
  '/rules': async (page) => {
    await page.goto('/rules');
    await expect(page.getByText(/^Version \d+ ·/)).toBeVisible();
  },
  '/runs': async (page) => {
    const runs = new RunsPage(page);
    await runs.goto();
    await expect(runs.table).toBeVisible();
  },
  '/audit': async (page) => {
    const audit = new AuditPage(page);
    await audit.goto();
    await expect(audit.rows.first()).toBeVisible();
  },
  '/users': async (page) => {
    await page.goto('/users');
    await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
  },
  '/login': async (page) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  },
};

/**
 * The page's scroll width, and hints for a failure: elements that reach past the viewport, and
 * elements whose text overflows their own box (a long word that does not wrap).
 */
function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.scrollingElement ?? document.documentElement;
    const width = root.clientWidth;
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className.trim() ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    const outside: string[] = [];
    const overflowing: { el: HTMLElement; text: string }[] = [];
    for (const el of Array.from(document.body.querySelectorAll<HTMLElement>('*'))) {
      const right = el.getBoundingClientRect().right;
      if (right > width + 1) outside.push(`${name(el)} (right edge ${Math.round(right)})`);
      else if (
        getComputedStyle(el).overflowX === 'visible' &&
        el.clientWidth > 0 &&
        el.scrollWidth > el.clientWidth + 1
      )
        overflowing.push({ el, text: `${name(el)} (content ${el.scrollWidth} px in ${el.clientWidth} px)` });
    }
    // The innermost overflowing boxes are where a word fails to wrap.
    const innermost = overflowing
      .filter(({ el }) => !overflowing.some((o) => o.el !== el && el.contains(o.el)))
      .map((o) => o.text);
    return {
      scrollWidth: root.scrollWidth,
      clientWidth: width,
      culprits: [...outside.slice(0, 8), ...innermost.slice(0, 4)],
    };
  });
}

test.beforeAll(async ({ request, baseURL }) => {
  // A long unbroken command in the runs list, the transcript and the audit log.
  const marker = uniqueMarker('responsive');
  const run = await startWaitingRun(baseURL!, `$ echo ${marker}-${'x'.repeat(120)}`);
  await decide(request, run, { approved: false, reason: `responsive seed ${'y'.repeat(80)}` });
  seeded = run.runId;
});

for (const [path, open] of Object.entries(PAGES)) {
  test(`${path} has no horizontal page scroll at 375 px`, async ({ page }) => {
    await open(page);
    const { scrollWidth, clientWidth, culprits } = await horizontalOverflow(page);
    expect(clientWidth).toBeLessThanOrEqual(375);
    expect(
      scrollWidth,
      `${path} is ${scrollWidth} px wide in a ${clientWidth} px viewport; sticking out: ${culprits.join(', ')}`,
    ).toBeLessThanOrEqual(clientWidth + 1);
  });
}
