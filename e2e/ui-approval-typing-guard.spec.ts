// A call that appears while someone is typing in the message box: the dialog takes focus, and the
// letters they go on typing ("yes", "any", "no") must not approve, always allow or deny it. The
// dialog arms only once the keyboard has been quiet for a moment; then a deliberate click decides.
import { expect, test } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { RunsPage } from './pages/runs-page';
import { hookCall, uniqueMarker } from './support/runs-api';

test('letters typed for the message box while a call appears decide nothing', async ({ page, baseURL }) => {
  const marker = uniqueMarker('typing');
  const cwd = `/tmp/${marker}`;
  const session = { session_id: marker, cwd, permission_mode: 'default', hook_event_name: 'PreToolUse' };
  const bash = (command: string, n: number) =>
    hookCall(baseURL!, { ...session, tool_name: 'Bash', tool_input: { command }, tool_use_id: `${marker}-${n}` });

  // A first call opens the run's transcript; it is approved with a click.
  const first = bash(`echo ${marker}-first`, 1);
  const runs = new RunsPage(page);
  await runs.goto();
  await expect(runs.row(cwd)).toBeVisible({ timeout: 15_000 });
  await runs.transcriptLink(cwd).click();
  const chat = new ChatPage(page);
  await chat.expectDialogFor(`${marker}-first`);
  await chat.expectArmed();
  await chat.approveOnce.click();
  expect((await first).body.hookSpecificOutput).toMatchObject({ permissionDecision: 'allow' });
  await expect(chat.dialog).toBeHidden();

  // The person types a message; meanwhile the agent asks again.
  await chat.message.click();
  await page.keyboard.type('Looks fine. ', { delay: 80 });
  const second = bash(`touch ${marker}-second.txt`, 2);
  // They keep typing, as people do, while the dialog opens over the message box...
  for (let i = 0; i < 200 && !(await chat.dialog.isVisible()); i++) await page.keyboard.type('x', { delay: 80 });
  await expect(chat.dialog).toBeVisible();
  // ...and go on for a few seconds: Y, A and N among the letters, well past the arming delay.
  await page.keyboard.type('yes yes, any answer will do, yes now yes', { delay: 80 });

  // Nothing was decided: the call is still on screen, and the dialog arms once the typing stopped.
  await chat.expectArmed();
  await expect(chat.dialogParams()).toContainText(`touch ${marker}-second.txt`);
  await chat.reason.fill('not while I was typing');
  await chat.expectArmed();
  await chat.deny.click();
  const denied = await second;
  expect(denied.body.hookSpecificOutput).toMatchObject({
    permissionDecision: 'deny',
    permissionDecisionReason: 'not while I was typing',
  });
});
