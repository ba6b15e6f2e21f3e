// The chat's agent picker: the profile picked applies to the run it starts. The `reader` profile
// has only read_file and list_files, so a shell instruction is skipped (no bash call, no approval)
// while listing runs; the run records the profile (GET /api/runs/:id).
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { uniqueMarker } from './support/runs-api';

test('a run started with the reader profile gets only its tools', async ({ page }) => {
  const chat = new ChatPage(page);
  const m = uniqueMarker('picker');
  await chat.goto();
  await expect(chat.agent).toHaveValue('general');
  await chat.agent.selectOption('reader');
  await expect(chat.agent).toHaveAccessibleDescription('Only reads and lists files');

  const runId = await chat.say(`$ echo ${m}\nls .`);
  await expect(chat.reply(`Tool bash is not available here, so I skipped: $ echo ${m}`)).toBeVisible();
  await chat.expectCallStatus(chat.toolCall('list_files'), 'done');
  await expect(chat.toolCall('bash')).toHaveCount(0);
  await expect(chat.dialog).toBeHidden();

  const response = await page.request.get(`/api/runs/${runId}`);
  expect(response.ok()).toBe(true);
  expect(((await response.json()) as { run: { agent: string } }).run.agent).toBe('reader');

  // The pick stays for the next run started from this page.
  await expect(chat.agent).toHaveValue('reader');
});
