// Reload while an approval is pending: the transcript and the dialog come back from the server
// (the run's record and its event log), and the restored dialog still decides the call. And a
// stream that drops mid-run is resumed with Last-Event-ID, without losing or repeating events.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';
import { SseReader, type SseEvent } from './support/sse';

const block = (e: SseEvent) =>
  `${e.id === undefined ? '' : `id: ${e.id}\n`}event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;

test('reload while pending: the dialog comes back and still works', async ({ page }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('reload');
  await chat.goto();
  const runId = await chat.say(`$ echo ${marker}`);
  await chat.expectDialogFor(marker);

  await page.reload();
  await expect(page).toHaveURL(new RegExp(`\\?run=${runId}$`));
  await chat.expectDialogFor(marker);
  await expect(chat.conversation.getByText(`$ echo ${marker}`)).toBeVisible();
  await chat.expectCallStatus(chat.toolCall('bash', marker), 'waiting for approval');
  await expect(chat.status).toContainText('Safe mode');

  await chat.approveOnce.click();
  await expect(chat.dialog).toBeHidden();
  await chat.expectCallStatus(chat.toolCall('bash', marker), 'done');
  await expect(chat.reply(`bash: ${marker}`)).toBeVisible();
  // Decided here, so no "decided elsewhere" notice.
  await expect(page.getByText(/Approved elsewhere/)).toHaveCount(0);
});

test('a dropped stream resumes with Last-Event-ID: nothing lost, nothing twice', async ({ page, baseURL }) => {
  const chat = new ChatPage(page);
  const marker = uniqueMarker('drop');
  // The chat's POST reaches the server, but its stream "drops" after the first event of the run.
  await page.route('**/api/chat', async (route) => {
    const abort = new AbortController();
    const { events } = await SseReader.open(`${baseURL}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: route.request().postData() ?? '',
      signal: abort.signal,
    });
    const connected = await events.until('connected');
    const first = await events.until('tool_call');
    abort.abort();
    await route.fulfill({
      status: 200,
      headers: { 'Content-Type': 'text/event-stream' },
      body: block(connected) + block(first),
    });
  });
  const resumedAfter: Array<string | undefined> = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/events')) resumedAfter.push(request.headers()['last-event-id']);
  });
  await chat.goto();
  await chat.say(`$ echo ${marker}`);

  await chat.expectDialogFor(marker);
  expect(resumedAfter[0]).toBe('1');
  await expect(chat.toolCall('bash')).toHaveCount(1);
  await chat.approveOnce.click();
  await chat.expectCallStatus(chat.toolCall('bash', marker), 'done');
  await expect(chat.reply(`bash: ${marker}`)).toHaveCount(1);
});
