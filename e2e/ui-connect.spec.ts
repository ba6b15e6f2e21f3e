// The Connect page: it is in the navigation, shows the Claude Code hook block for this server
// (fail closed, the deadline in the URL), creates a fresh agent token that appears once in the
// shell line beside it and asks the gate (and nothing else) until revoked there, explains what happens when Gatehouse is down,
// lists the connected sessions, and has no serious axe violations. Switched (from the keyboard) to
// Gemini CLI, it shows that agent's `.gemini/settings.json` block for this server, the token in
// the variable the hook script reads, refuses a relative script path, and stays accessible. Codex
// CLI likewise (also opened by `?agent=codex`): its `~/.codex/hooks.json` block, the config.toml
// lines that keep the token from the model's commands, why the hook must be trusted, and a Codex
// session among the connected ones.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { uniqueMarker } from './support/runs-api';

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

test('the Connect page creates a token, shows it in the block, and is accessible', async ({
  page,
  request,
  baseURL,
}) => {
  await page.goto('/runs');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Connect' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Connect an agent' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /^Claude Code/ })).toBeChecked();

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
    page.getByText('No session has called yet.').or(page.getByRole('table', { name: 'Runs, newest first' })),
  ).toBeVisible();

  const shell = page.getByLabel('Shell: the token for Claude Code', { exact: true });
  await expect(shell).toHaveValue("export GATEHOUSE_TOKEN='<create a token above>'");
  await page.getByRole('button', { name: 'Create a token' }).click();
  await expect(page.getByText('Copy it now: the token is shown only once.')).toBeVisible();
  const line = await shell.inputValue();
  const token = /^export GATEHOUSE_TOKEN='([^']+)'$/.exec(line)?.[1];
  expect(token, line).toBeTruthy();

  // The token is a real agent token: it asks the gate, and nothing else (not even who it is).
  const bearer = { Authorization: `Bearer ${token}` };
  const ask = () =>
    request.post('/api/hooks/decide', { headers: bearer, data: { tool: 'list_files', params: {}, wait: false } });
  const asked = await ask();
  expect(asked.status()).toBe(200);
  expect(['allow', 'deny', 'ask']).toContain((await asked.json()).decision);
  const runs = await request.get('/api/runs?source=hook', { headers: bearer });
  expect(runs.status()).toBe(403);
  expect((await runs.json()).error.code).toBe('forbidden:agent_token');
  expect((await request.get('/api/auth/me', { headers: bearer })).status()).toBe(403);

  // Listed here with Revoke (users who are not admins have no other page for it); revoked, it is refused.
  const revoke = page.getByRole('button', { name: /^Revoke token Claude Code / });
  await expect(revoke).toHaveCount(1);
  await revoke.click();
  await expect(revoke).toHaveCount(0);
  expect((await ask()).status()).toBe(401);

  await expectNoSeriousAxeViolations(page);
});

test('the Connect page switched to Gemini CLI shows its block for this server, and is accessible', async ({
  page,
  baseURL,
}) => {
  await page.goto('/connect');
  const claude = page.getByRole('radio', { name: /^Claude Code/ });
  await expect(claude).toBeChecked();
  // A radio group: the arrow key moves the choice.
  await claude.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: /^Gemini CLI/ })).toBeChecked();
  await expect(page).toHaveURL(/[?&]agent=gemini-cli\b/);
  await expect(page.getByLabel('.claude/settings.json', { exact: true })).toHaveCount(0);

  const settings = page.getByLabel('.gemini/settings.json', { exact: true });
  const block = JSON.parse(await settings.inputValue()) as {
    hooks: { BeforeTool: { matcher: string; hooks: Record<string, unknown>[] }[] };
  };
  const hook = block.hooks.BeforeTool[0]!;
  expect(hook.matcher).toBe('.*');
  expect(hook.hooks[0]).toMatchObject({ name: 'gatehouse', type: 'command', timeout: expect.any(Number) });
  const command = String(hook.hooks[0]!.command);
  expect(command).toContain(`'${baseURL}/api/hooks/gemini-cli?deadline=`);
  expect(command).toMatch(/^node '\/opt\/gatehouse\/gatehouse-hook\.mjs' '[^']+' \|\| exit 2$/);
  await expect(page.getByText('scripts/gatehouse-hook.mjs', { exact: true })).toBeVisible();
  await expect(
    page.getByText(/ignores a project's \.gemini\/settings\.json in a folder it does not trust/),
  ).toBeVisible();

  await expectTokenInShell(page, 'Gemini CLI');
  await expectScriptPathChecked(page, settings, /node '\/home\/dev\/bin\/gatehouse-hook\.mjs'/);

  await expectNoSeriousAxeViolations(page);

  // The choice survives a reload; the token made here is listed (and revoked, to leave none behind).
  await page.reload();
  await expect(page.getByRole('radio', { name: /^Gemini CLI/ })).toBeChecked();
  const revoke = page.getByRole('button', { name: /^Revoke token Gemini CLI / });
  await expect(revoke).toHaveCount(1);
  await revoke.click();
  await expect(revoke).toHaveCount(0);
});

test('the Connect page switched to Codex CLI shows its block for this server, its sessions, and is accessible', async ({
  page,
  request,
  baseURL,
}) => {
  // A Codex session: one call through Codex's hook endpoint, denied (by the default policy at once,
  // or by the deadline), so nothing is left waiting.
  const marker = uniqueMarker('connect-session');
  const cwd = `/tmp/${marker}`;
  const hooked = await request.post('/api/hooks/codex?deadline=5', {
    data: {
      session_id: marker,
      cwd,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'sudo true' },
      tool_use_id: `${marker}-1`,
    },
  });
  expect(hooked.status()).toBe(200);
  expect((await hooked.json()).hookSpecificOutput).toMatchObject({ permissionDecision: 'deny' });

  await page.goto('/connect');
  await page.getByRole('radio', { name: /^Codex CLI/ }).check();
  await expect(page).toHaveURL(/[?&]agent=codex\b/);
  await expect(page.getByLabel('.claude/settings.json', { exact: true })).toHaveCount(0);
  await expect(page.getByLabel('.gemini/settings.json', { exact: true })).toHaveCount(0);

  const settings = page.getByLabel('~/.codex/hooks.json', { exact: true });
  const block = JSON.parse(await settings.inputValue()) as {
    hooks: { PreToolUse: { matcher: string; hooks: Record<string, unknown>[] }[] };
  };
  const hook = block.hooks.PreToolUse[0]!;
  expect(hook.matcher).toBe('.*');
  expect(hook.hooks[0]).toMatchObject({ type: 'command', timeout: expect.any(Number) });
  const command = String(hook.hooks[0]!.command);
  expect(command).toContain(`'${baseURL}/api/hooks/codex?deadline=`);
  expect(command).toMatch(/^node '\/opt\/gatehouse\/gatehouse-hook\.mjs' '[^']+' --codex \|\| \{.*exit 2; \}$/);
  await expect(page.getByLabel('~/.codex/config.toml', { exact: true })).toHaveValue(
    '[shell_environment_policy]\nexclude = ["GATEHOUSE_TOKEN"]\n',
  );
  await expect(page.getByRole('heading', { name: '3. Trust the hook, or it does not run' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'When Gatehouse is down' })).toBeVisible();

  // The Codex session is listed, under its cwd, with its agent beside the model.
  const session = page.getByRole('table', { name: 'Runs, newest first' }).getByRole('row').filter({ hasText: cwd });
  await expect(session).toBeVisible();
  await expect(session.getByRole('cell').nth(3)).toContainText('codex');

  await expectTokenInShell(page, 'Codex CLI');
  await expectScriptPathChecked(page, settings, /node '\/home\/dev\/bin\/gatehouse-hook\.mjs' '[^']+' --codex/);

  await expectNoSeriousAxeViolations(page);

  // `?agent=codex` opens Codex CLI's steps; the token made here is listed (and revoked, to leave none behind).
  await page.goto('/connect?agent=codex');
  await expect(page.getByRole('radio', { name: /^Codex CLI/ })).toBeChecked();
  await expect(settings).toHaveValue(/--codex/);
  const revoke = page.getByRole('button', { name: /^Revoke token Codex CLI / });
  await expect(revoke).toHaveCount(1);
  await revoke.click();
  await expect(revoke).toHaveCount(0);
});

/** The token made on the page lands in the variable the hook script reads (a command-hook CLI's steps). */
async function expectTokenInShell(page: Page, cli: string) {
  const shell = page.getByLabel(`Shell: the token for ${cli}`, { exact: true });
  await expect(shell).toHaveValue("export GATEHOUSE_TOKEN='<create a token above>'");
  await page.getByRole('button', { name: 'Create a token' }).click();
  await expect(shell).toHaveValue(/^export GATEHOUSE_TOKEN='[^'<]+'$/);
}

/** The script path is the user's: a relative one is refused (no block), an absolute one goes into the block. */
async function expectScriptPathChecked(page: Page, settings: Locator, inBlock: RegExp) {
  const script = page.getByLabel('Where gatehouse-hook.mjs is');
  await script.fill('gatehouse-hook.mjs');
  await expect(page.getByText('Give an absolute path, such as /opt/gatehouse/gatehouse-hook.mjs.')).toBeVisible();
  await expect(settings).toHaveCount(0);
  await script.fill('/home/dev/bin/gatehouse-hook.mjs');
  await expect(settings).toHaveValue(inBlock);
}
