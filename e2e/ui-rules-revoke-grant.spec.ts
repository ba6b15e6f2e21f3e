// Always Allow grants: one made by approving a chat call "always" is listed on /rules with its
// rule, scope, author and time; revoking it makes the same call ask again.
import { expect, test, type APIRequestContext } from '@playwright/test';
import { RulesPage } from './pages/rules-page';
import { marker } from './support/policy-api';
import { SseReader } from './support/sse';

const mark = marker();
const sessionId = `rules-grant-${mark}`;
const command = `echo rules-grant-${mark}`;

/** Starts a chat run of the same call in the spec's session. */
async function runCall(baseURL: string) {
  return SseReader.open(`${baseURL}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ sessionId, messages: [{ role: 'user', content: `$ ${command}` }] }),
  });
}

async function decide(request: APIRequestContext, relayId: string, response: Record<string, unknown>) {
  expect((await request.post(`/api/chat/relay/${relayId}`, { data: { sessionId, response } })).status()).toBe(200);
}

test('a revoked Always Allow grant asks again', async ({ page, request, baseURL }) => {
  const first = await runCall(baseURL!);
  const relay = (await first.events.until('relay')).data as { id: string };
  await decide(request, relay.id, { approved: true, always: true });
  await first.events.rest();

  const rules = new RulesPage(page);
  await rules.goto();
  const row = rules.grantRow(sessionId);
  await expect(row).toContainText('allow bash command "echo *"');
  await expect(row).toContainText('session');
  // Created by whoever decided: the suite's signed-in admin.
  await expect(row).toContainText('admin');
  await expect(row.locator('time')).toBeVisible();

  await row.getByRole('button', { name: /^Revoke grant/ }).click();
  await expect(rules.grants.getByRole('status')).toContainText('The next matching call asks again.');
  await expect(row).toHaveCount(0);

  const again = await runCall(baseURL!);
  const asked = (await again.events.until('relay')).data as { id: string; params: { command: string } };
  expect(asked.params.command).toBe(command);
  await decide(request, asked.id, { approved: false, reason: 'spec done' });
  await again.events.rest();
});
