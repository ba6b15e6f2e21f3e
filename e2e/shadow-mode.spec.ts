// Shadow mode from the rules page: a shadow that denies a command is set from the live rules, a
// chat call the live policy asks about (and a human approves) runs as before, the panel shows
// the difference (ask -> deny) with its example, and promoting makes the shadow the live policy.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { RulesPage } from './pages/rules-page';
import { ShadowPanel } from './pages/shadow-panel';
import { getPolicy, marker, removeRules, ruleIds } from './support/policy-api';

const mark = marker();
const denyId = `shadow-deny-${mark}`;
const denyRule = { id: denyId, action: 'deny', tool: 'bash', params: { command: `echo ${mark}*` } };

async function clearShadow(request: APIRequestContext) {
  const response = await request.delete('/api/policy/shadow');
  expect([204, 404]).toContain(response.status());
}

test.afterEach(async ({ request }) => {
  await clearShadow(request);
  await removeRules(request, mark);
});

test('a shadow that denies a command records the chat call it would have denied, then is promoted to live', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const rules = new RulesPage(page);
  const shadow = new ShadowPanel(page);
  await rules.goto();
  await shadow.setFromLiveRules((live) => ({ ...live, rules: [...live.rules, denyRule] }));

  // The live policy asks; the human approves; the shadow changes nothing of it.
  const chat = new ChatPage(page);
  await chat.goto();
  await chat.say(`$ echo ${mark}`);
  await chat.expectDialogFor(`echo ${mark}`);
  await chat.approveOnce.click();
  const card = chat.toolCall('bash', mark);
  await chat.expectCallStatus(card, 'done');
  await expect(card.getByLabel('Output', { exact: true })).toHaveText(mark);

  await rules.goto();
  const group = shadow.group('ask', 'deny', 'bash');
  await expect(group).toBeVisible();
  await expect(group).toContainText(`echo ${mark}`);
  await expect(shadow.region.getByRole('table', { name: 'Recent differences' })).toContainText(`echo ${mark}`);

  // Promote, based on the live version on screen; another spec's save meanwhile is a conflict:
  // then the shadow is set again from the new live rules.
  let promoted = false;
  for (let attempt = 0; attempt < 5 && !promoted; attempt++) {
    if (attempt > 0) {
      await rules.reloadAfterConflict();
      await shadow.setFromLiveRules((live) => ({ ...live, rules: [...live.rules, denyRule] }));
    }
    await shadow.promote();
    const done = shadow.region.getByRole('status').filter({ hasText: 'The shadow is now the live policy' });
    await expect(done.or(rules.conflictNotice)).toBeVisible();
    promoted = await done.isVisible();
  }
  expect(promoted).toBe(true);
  expect(ruleIds((await getPolicy(request)).policy)).toContain(denyId);
  await expect(rules.ruleRow(denyId)).toBeVisible();
  await expect(shadow.region.getByRole('heading', { name: 'Set a shadow' })).toBeVisible();
  expect(((await (await request.get('/api/policy/shadow')).json()) as { shadow: unknown }).shadow).toBeNull();
});
