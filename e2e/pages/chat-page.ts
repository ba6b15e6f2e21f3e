// Page object for the chat (`/`): the composer, the pickers and status bar, tool-call cards, the
// reply, and the approval dialog with its queue. Everything is located by role and accessible name.
import { expect, type Locator, type Page } from '@playwright/test';

export class ChatPage {
  readonly message: Locator;
  readonly send: Locator;
  readonly agent: Locator;
  readonly mode: Locator;
  readonly status: Locator;
  readonly conversation: Locator;
  readonly dialog: Locator;
  readonly approveOnce: Locator;
  readonly alwaysAllow: Locator;
  readonly deny: Locator;
  readonly approveAll: Locator;
  readonly reason: Locator;
  readonly cancelRun: Locator;

  constructor(readonly page: Page) {
    this.message = page.getByRole('textbox', { name: 'Message' });
    this.send = page.getByRole('button', { name: 'Send' });
    this.agent = page.getByRole('combobox', { name: 'Agent' });
    this.mode = page.getByRole('combobox', { name: 'Mode' });
    this.status = page.getByRole('status', { name: 'Run status' });
    this.conversation = page.getByRole('log', { name: 'Conversation' });
    this.dialog = page.getByRole('dialog', { name: 'Permission required' });
    this.approveOnce = this.dialog.getByRole('button', { name: 'Approve Once' });
    this.alwaysAllow = this.dialog.getByRole('button', { name: 'Always Allow' });
    this.deny = this.dialog.getByRole('button', { name: 'Deny' });
    this.approveAll = this.dialog.getByRole('button', { name: 'Approve this and all later calls (Auto-approve)' });
    this.reason = this.dialog.getByRole('textbox', { name: 'Reason' });
    this.cancelRun = page.getByRole('button', { name: 'Stop', exact: true });
  }

  async goto(runId?: string) {
    await this.page.goto(runId ? `/?run=${encodeURIComponent(runId)}` : '/');
    await expect(this.message).toBeVisible();
  }

  /** Sends a message and waits until the URL names the run it started; returns the run id. */
  async say(text: string): Promise<string> {
    await this.message.fill(text);
    await this.send.click();
    // The first run after a cold start can take a few seconds on a busy 2-core machine.
    await expect(this.page).toHaveURL(/\?run=[\w-]+$/, { timeout: 15_000 });
    return this.runId();
  }

  /** Waits until the URL names a run other than `previous` (a follow-up starts a new run); returns its id. */
  async newRunAfter(previous: string | null): Promise<string> {
    const current = () => new URL(this.page.url()).searchParams.get('run');
    await expect.poll(() => current() !== null && current() !== previous, { timeout: 15_000 }).toBe(true);
    return this.runId();
  }

  runId(): string {
    const id = new URL(this.page.url()).searchParams.get('run');
    if (!id) throw new Error(`no run in the URL ${this.page.url()}`);
    return id;
  }

  /** The tool-call cards of one tool (e.g. "bash"), optionally the one whose text contains `text`. */
  toolCall(tool: string, text?: string): Locator {
    const cards = this.page.getByRole('article', { name: `${tool} call` });
    return text ? cards.filter({ hasText: text }) : cards;
  }

  async expectCallStatus(
    card: Locator,
    status: 'waiting for approval' | 'running' | 'done' | 'error' | 'denied' | 'expired',
  ) {
    await expect(card.getByText(status, { exact: true })).toBeVisible();
  }

  /** The assistant's reply containing `text`. */
  reply(text: string | RegExp): Locator {
    return this.conversation.getByText(text);
  }

  /** The dialog's queue position, e.g. "1 of 3". */
  queuePosition(): Locator {
    return this.dialog.getByText(/^\d+ of \d+$/);
  }

  /** The command shown in the dialog's parameters. */
  dialogParams(): Locator {
    return this.dialog.getByLabel('Parameters', { exact: true });
  }

  /** Decisions count once the dialog is armed (a moment after a call appears or a decision). */
  async expectArmed() {
    await expect(this.dialog).toHaveAttribute('data-armed', 'true');
  }

  /** The banner shown while the dialog is closed without deciding, and its way back. */
  pendingBanner(): Locator {
    return this.page.getByRole('status', { name: 'Pending approvals' });
  }

  async expectDialogFor(text: string) {
    await expect(this.dialog).toBeVisible();
    await expect(this.dialogParams()).toContainText(text);
  }

  /** The session id of the chat's run, from the API (for checks such as the stored grants). */
  async sessionId(): Promise<string> {
    const response = await this.page.request.get(`/api/runs/${this.runId()}`);
    expect(response.ok()).toBe(true);
    return ((await response.json()) as { run: { sessionId: string } }).run.sessionId;
  }
}
