// The Connect page: it is in the navigation, shows the Claude Code hook block for this server
// (fail closed, the deadline in the URL), creates a fresh API token that appears once in the
// shell line beside it and works as a Bearer token until revoked there, explains what happens when Gatehouse is down,
// lists the connected sessions, and has no serious axe violations.
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

test('the Connect page creates a token, shows it in the block, and is accessible', async ({
  page,
  request,
  baseURL,
}) => {
  await page.goto('/runs');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connect' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Connect Claude Code' })).toBeVisible();

  const block = JSON.parse(await page.getByLabel('.claude/settings.json', { exact: true }).inputValue()) as {
    hooks: { PreToolUse: { matcher: string; hooks: Record<string, unknown>[] }[] };
  };
  const hook = block.hooks.PreToolUse[0]!;
  expect(hook.matcher).toBe('*');
  expect(hook.hooks[0]).toMatchObject({
    type: 'http',
    url: expect.stringMatching(new RegExp(`^${baseURL}/api/hooks/claude-code\\?deadline=\\d+$`)),
    headers: { Authorization: 'Bearer $GATEHOUSE_TOKEN' },
    allowedEnvVars: ['GATEHOUSE_TOKEN'],
    onFailure: 'block',
  });
  await expect(page.getByRole('heading', { name: 'When Gatehouse is down' })).toBeVisible();
  // Other specs may have connected sessions by now: either list is right.
  await expect(page.getByRole('heading', { name: 'Connected sessions' })).toBeVisible();
  await expect(
    page
      .getByText('No Claude Code session has called yet.')
      .or(page.getByRole('table', { name: 'Runs, newest first' })),
  ).toBeVisible();

  const shell = page.getByLabel('Shell: the token for Claude Code', { exact: true });
  await expect(shell).toHaveValue("export GATEHOUSE_TOKEN='<create a token above>'");
  await page.getByRole('button', { name: 'Create a token' }).click();
  await expect(page.getByText('Copy it now: the token is shown only once.')).toBeVisible();
  const line = await shell.inputValue();
  const token = /^export GATEHOUSE_TOKEN='([^']+)'$/.exec(line)?.[1];
  expect(token, line).toBeTruthy();

  // The token is real: it authenticates as the signed-in user, and lists the hook sessions.
  const me = await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).username).toBe('admin');
  const sessions = await request.get('/api/runs?source=hook', { headers: { Authorization: `Bearer ${token}` } });
  expect(sessions.status()).toBe(200);

  // Listed here with Revoke (users who are not admins have no other page for it); revoked, it is refused.
  const revoke = page.getByRole('button', { name: /^Revoke token Claude Code / });
  await expect(revoke).toHaveCount(1);
  await revoke.click();
  await expect(revoke).toHaveCount(0);
  expect((await request.get('/api/auth/me', { headers: { Authorization: `Bearer ${token}` } })).status()).toBe(401);

  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
});
