// Accessibility: an axe scan (WCAG 2.0/2.1 A and AA, plus label-content-name-mismatch: a control's
// accessible name must contain its visible label) of every page, in the light and the dark colour
// scheme, at desktop width and at phone width (390×844), and of the dialogs that matter most.
// Kept fast: one test per size, the pages visited in a loop and each scanned in both schemes
// (switched in place: the colours are CSS alone, so the second scheme is scanned with the colour
// rules only), every serious or critical violation reported together at the end.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { AuditPage } from './pages/audit-page';
import { RulesPage } from './pages/rules-page';
import { RunsPage } from './pages/runs-page';
import { cancelRun, decide, type StartedRun, startWaitingRun, uniqueMarker } from './support/runs-api';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SCHEMES = ['light', 'dark'] as const;
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

/** The axe rules whose outcome depends on the colours: all that can change with the colour scheme. */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * The serious and critical violations on the page as it is now, one line per rule and target: of
 * every rule, or (`colours`) of the colour rules alone.
 */
async function seriousViolations(page: Page, what: string, { colours = false } = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const results = await (
    colours
      ? builder.withRules(COLOUR_RULES)
      : // An explicitly enabled rule runs besides the tags (it is tagged experimental in axe).
        builder
          .options({ rules: { 'label-content-name-mismatch': { enabled: true } }, resultTypes: ['violations'] })
          .withTags(TAGS)
  ).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${what}: ${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`).join('\n')}`,
    );
}

/** Each page, with what to wait for before scanning (its content, not a fixed time). */
const PAGES: Record<string, (page: Page) => Promise<void>> = {
  '/': async (page) => {
    await page.goto('/');
    await expect(page.getByRole('textbox', { name: 'Message' })).toBeVisible();
  },
  '/rules': async (page) => {
    await new RulesPage(page).goto();
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
  '/users': async (page) => {
    await page.goto('/users');
    await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
  },
  '/login': async (page) => {
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  },
};

/** Dialogs opened on top of their page, scanned open, then closed without deciding anything. */
const DIALOGS: Record<string, (page: Page) => Promise<() => Promise<void>>> = {
  'the chat approval dialog': async (page) => {
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Message' }).fill(`$ echo ${uniqueMarker('a11y-chat')}`);
    await page.getByRole('button', { name: 'Send' }).click();
    const dialog = page.getByRole('dialog', { name: 'Permission required' });
    await expect(dialog).toBeVisible();
    return async () => {
      await dialog.getByRole('button', { name: 'Deny' }).click();
      await expect(dialog).toBeHidden();
    };
  },
  'the cancel-run confirmation': async (page) => {
    const runs = new RunsPage(page);
    await runs.goto('?status=waiting');
    await runs.table
      .getByRole('button', { name: /^Cancel run/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: 'Cancel this run?' });
    await expect(dialog).toBeVisible();
    return async () => {
      await dialog.getByRole('button', { name: 'Keep running' }).click();
      await expect(dialog).toBeHidden();
    };
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

/**
 * The page's violations in each colour scheme, switched in place (the app's colours are CSS alone,
 * so the page is the same but for its colours): every rule in the first scheme, the colour rules in
 * the others (a full scan is the slow part of this spec).
 */
async function inEveryScheme(page: Page, what: string): Promise<string[]> {
  const found: string[] = [];
  for (const [index, colorScheme] of SCHEMES.entries()) {
    await page.emulateMedia({ colorScheme });
    found.push(...(await seriousViolations(page, `${what} (${colorScheme})`, { colours: index > 0 })));
  }
  return found;
}

for (const [size, viewport] of Object.entries(SIZES)) {
  test.describe(`${size} ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });

    test('every page and dialog has no serious axe violations, light and dark', async ({ page }) => {
      test.setTimeout(180_000);
      const found: string[] = [];
      for (const [path, open] of Object.entries(PAGES)) {
        await open(page);
        found.push(...(await inEveryScheme(page, path)));
      }
      for (const [what, open] of Object.entries(DIALOGS)) {
        const close = await open(page);
        found.push(...(await inEveryScheme(page, what)));
        await close();
      }
      expect(found, `serious or critical axe violations (${size}):\n${found.join('\n')}`).toEqual([]);
    });
  });
}
