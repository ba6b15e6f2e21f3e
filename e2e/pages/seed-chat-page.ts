// Page object for /examples/seed-chat: the seed design's React example. Its markup is the
// design's (a Start button, an events list, a `.modal` div), so the modal is found by its heading.
import { expect, type Locator, type Page, type Request } from '@playwright/test';

export class SeedChatPage {
  readonly start: Locator;
  readonly heading: Locator;
  readonly modal: Locator;
  readonly approveOnce: Locator;
  readonly alwaysAllow: Locator;
  readonly deny: Locator;

  constructor(readonly page: Page) {
    this.start = page.getByRole('button', { name: 'Start' });
    this.heading = page.getByRole('heading', { name: '⚠️ Permission Required' });
    // The design's modal is a plain div holding the heading.
    this.modal = page.locator('div.modal').filter({ has: this.heading });
    this.approveOnce = this.modal.getByRole('button', { name: 'Approve Once' });
    this.alwaysAllow = this.modal.getByRole('button', { name: 'Always Allow' });
    this.deny = this.modal.getByRole('button', { name: 'Deny' });
  }

  async goto() {
    await this.page.goto('/examples/seed-chat');
    await expect(this.page.getByRole('heading', { level: 1, name: 'Seed example: chat' })).toBeVisible();
  }

  /** A line of the events list: a text event's content or a tool call's `📞 <name>`. */
  event(text: string | RegExp): Locator {
    return this.page.locator('.events p').filter({ hasText: text });
  }

  /** Clicks a modal button and returns the POST /api/chat/relay/:id it sent. */
  async answer(button: Locator): Promise<Request> {
    const [request] = await Promise.all([
      this.page.waitForRequest((r) => r.method() === 'POST' && /\/api\/chat\/relay\/[^/]+$/.test(r.url())),
      button.click(),
    ]);
    return request;
  }
}
