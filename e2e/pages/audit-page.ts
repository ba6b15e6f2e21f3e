// Page object for /audit: the filter form (its values live in the URL) and the audit table with
// its "Load older entries" pagination.
import { expect, type Locator, type Page } from '@playwright/test';

export interface AuditFilterInput {
  run?: string;
  tool?: string;
  action?: 'allow' | 'ask' | 'deny' | '';
  who?: string;
  /** `datetime-local` values (local time), e.g. `2026-05-01T09:30`. */
  from?: string;
  to?: string;
}

export class AuditPage {
  readonly heading: Locator;
  readonly table: Locator;
  /** Body rows only (the header row has column headers, not cells). */
  readonly rows: Locator;
  readonly loadMore: Locator;
  readonly filters: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Audit' });
    this.table = page.getByRole('table', { name: 'Audit log, newest first' });
    this.rows = this.table.getByRole('row').filter({ has: page.getByRole('cell') });
    this.loadMore = page.getByRole('button', { name: 'Load older entries' });
    this.filters = page.getByRole('form', { name: 'Audit filters' });
  }

  async goto(query = '') {
    await this.page.goto(`/audit${query}`);
    await expect(this.heading).toBeVisible();
  }

  /** A filter control by its label (Who is a combobox: it suggests user, policy, system). */
  field(label: 'Run' | 'Tool' | 'Who' | 'Action' | 'Kind' | 'From' | 'To') {
    return this.filters.getByLabel(label, { exact: true });
  }

  /** Replaces the whole filter (fields left out are cleared) and applies it. */
  async filter(input: AuditFilterInput) {
    await this.field('Run').fill(input.run ?? '');
    await this.field('Tool').fill(input.tool ?? '');
    await this.field('Who').fill(input.who ?? '');
    await this.field('Action').selectOption(input.action ?? '');
    await this.field('From').fill(input.from ?? '');
    await this.field('To').fill(input.to ?? '');
    await this.filters.getByRole('button', { name: 'Apply filters' }).click();
    // Applied once the URL holds it. The page then remounts the form from the URL
    // (audit-view.tsx): a fill made before that remount (the next filter's) would be lost to it.
    await expect.poll(() => applied(new URL(this.page.url()), input)).toBe(true);
  }

  row(text: string | RegExp): Locator {
    return this.rows.filter({ hasText: text });
  }

  /** The text of a row's cell under a column header (Time, Kind, Action, Tool, Who, Why, ...). */
  cell(row: Locator, column: string): Locator {
    const columns = ['Time', 'Kind', 'Action', 'Tool', 'Who', 'Why', 'Waited', 'Run', 'Agent', 'Params'];
    return row.getByRole('cell').nth(columns.indexOf(column));
  }
}

/** Whether the page's URL holds this filter: the same text fields, and a time bound where one was given. */
function applied(url: URL, input: AuditFilterInput): boolean {
  const params = url.searchParams;
  const same = (key: 'run' | 'tool' | 'action' | 'who') => (params.get(key) ?? '') === (input[key] ?? '').trim();
  const bounded = (key: 'from' | 'to') => params.has(key) === Boolean(input[key]);
  return same('run') && same('tool') && same('action') && same('who') && bounded('from') && bounded('to');
}
