// Conversations come back whole: leaving the chat for another page and returning reopens the
// current one with every turn and its tool cards; New chat starts afresh and the Conversations
// list reopens the earlier one. Each card has one status and says how the call was settled
// (a rule, a person's approval, a person's denial with the reason); a subagent's calls nest under it.
import { expect, test, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { decidePending, humanDecider, uniqueMarker } from './support/runs-api';

/** Sends (with the button: this spec is not about keys) and waits for the run it starts. */
async function sayAndWait(chat: ChatPage, text: string): Promise<string> {
  const previous = new URL(chat.page.url()).searchParams.get('run');
  await chat.message.fill(text);
  await chat.send.click();
  return chat.newRunAfter(previous);
}

async function expectAllTurns(chat: ChatPage, m: string, me: string) {
  const listing = chat.toolCall('list_files');
  await chat.expectCallStatus(listing, 'done');
  await expect(listing.getByText(/^allowed by rule #\d+ \(list-workspace\)$/)).toBeVisible();
  const missing = chat.toolCall('read_file', `${m}-missing`);
  await chat.expectCallStatus(missing, 'error');
  await expect(missing.getByText(/^allowed by rule #\d+ \(read-workspace\)$/)).toBeVisible();
  const approved = chat.toolCall('bash', `${m}-yes`);
  await chat.expectCallStatus(approved, 'done');
  await expect(approved.getByText(`approved by ${me}`, { exact: true })).toBeVisible();
  const denied = chat.toolCall('bash', `${m}-no`);
  await chat.expectCallStatus(denied, 'denied');
  await expect(denied.getByText(`denied by ${me}: not now ${m}`, { exact: true })).toBeVisible();
  await expect(chat.conversation).toContainText(`read ${m}-missing.txt`);
  for (const prompt of [`$ echo ${m}-yes`, `$ echo ${m}-no`])
    await expect(chat.conversation.getByText(prompt, { exact: true })).toBeVisible();
}

async function threeTurns(page: Page, chat: ChatPage, m: string) {
  await sayAndWait(chat, `read ${m}-missing.txt\nls .`);
  await expect(chat.status).toContainText('Done');
  await decidePending(page.request, await sayAndWait(chat, `$ echo ${m}-yes`), { approved: true });
  await expect(chat.status).toContainText('Done');
  await decidePending(page.request, await sayAndWait(chat, `$ echo ${m}-no`), {
    approved: false,
    reason: `not now ${m}`,
  });
  await expect(chat.status).toContainText('Done');
}

test('a conversation comes back with all its turns after going to another page, and from the list after New chat', async ({
  page,
}) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('reopen');
  const me = await humanDecider(page.request);
  await chat.goto();
  await threeTurns(page, chat, m);
  const lastRun = chat.runId();
  await expectAllTurns(chat, m, me);

  // Away and back through the header's Chat link: the same conversation, every turn.
  await page.goto('/runs');
  await page.getByRole('link', { name: 'Chat', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?run=${lastRun}$`));
  await expectAllTurns(chat, m, me);

  // New chat forgets it; the Conversations list brings it back.
  await page.getByRole('button', { name: 'New chat' }).click();
  await expect(chat.toolCall('bash')).toHaveCount(0);
  await page.getByText('Conversations', { exact: true }).click();
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await list.getByRole('link', { name: new RegExp(m) }).click();
  await expect(page).toHaveURL(new RegExp(`\\?run=${lastRun}$`));
  await expectAllTurns(chat, m, me);
  await expect(list.getByRole('link', { name: new RegExp(m) })).toHaveAttribute('aria-current', 'page');
});

test("a subagent's calls are nested under it", async ({ page }) => {
  const chat = new ChatPage(page);
  await chat.goto();
  // The main agent's task call asks (read-only, by the risk default); the reviewer's listing is allowed.
  await decidePending(page.request, await sayAndWait(chat, 'task reviewer: ls .'), { approved: true });
  await expect(chat.status).toContainText('Done');
  const group = page.getByRole('region', { name: 'Subagent main › reviewer' });
  await chat.expectCallStatus(group.getByRole('article', { name: 'list_files call' }), 'done');
  await expect(group.getByRole('article', { name: 'task call' })).toHaveCount(0);
});
