// The real Claude Code CLI (2.1.328, headless `-p`) guarded by Gatehouse through its `http` hook.
// Claude Code runs with --permission-mode bypassPermissions, so it would run every call on its own:
// the hook is the only gate, and "nothing ran" means Gatehouse stopped it. The model is the
// Messages API stand-in, which records what Claude was told about each call.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ChatPage } from './pages/chat-page';
import { RunsPage } from './pages/runs-page';
import { bash, say } from './support/anthropic-stand-in';
import { E2E_ADMIN_TOKEN } from './support/auth';
import { startClaudeCode, stopClaudeCode, type ClaudeCodeOptions } from './support/claude-code';
import { addRules, marker, removeRules } from './support/policy-api';

// One Claude Code process per test, each a few seconds; the asking ones wait for the browser.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

let mark: string;
test.beforeEach(() => {
  mark = marker();
});
test.afterEach(async ({ request }) => {
  await stopClaudeCode();
  await removeRules(request, mark);
});

/** Gatehouse's endpoint with an approval deadline well inside the hook's own 60 s timeout. */
const hookUrl = (baseURL: string) => `${baseURL}/api/hooks/claude-code?deadline=45`;

function claude(baseURL: string, steps: ClaudeCodeOptions['steps'], extra: Partial<ClaudeCodeOptions> = {}) {
  return startClaudeCode({
    steps,
    hookUrl: hookUrl(baseURL),
    token: E2E_ADMIN_TOKEN,
    hookTimeoutS: 60,
    permissionMode: 'bypassPermissions',
    ...extra,
  });
}

const bashRule = (id: string, action: 'allow' | 'deny' | 'ask', command: string) => ({
  id: `cc-${id}-${mark}`,
  action,
  tool: 'bash',
  agent: 'claude-code',
  params: { command },
  description: `claude-code e2e ${id} ${mark}`,
});

/** Waits (API) until the Claude Code run of `projectDir` holds a relay, then opens it from the Runs page. */
async function openWaitingRun(page: Page, request: APIRequestContext, projectDir: string): Promise<ChatPage> {
  await expect
    .poll(
      async () => {
        const runs = (await (await request.get('/api/runs')).json()) as { items: { title: string; status: string }[] };
        return runs.items.find((run) => run.title === projectDir)?.status;
      },
      { timeout: 30_000 },
    )
    .toBe('waiting');
  const runs = new RunsPage(page);
  await runs.goto();
  await runs.row(projectDir).getByRole('link').first().click();
  return new ChatPage(page);
}

test('an allowed command runs with no human', async ({ request, baseURL }) => {
  await addRules(request, bashRule('allow', 'allow', `touch allowed-${mark}`));
  const session = await claude(baseURL!, [bash(`touch allowed-${mark}`), say('Done.')]);
  const { toolResults } = await session.done;
  expect(toolResults).toEqual([expect.objectContaining({ isError: false })]);
  expect(existsSync(path.join(session.projectDir, `allowed-${mark}`))).toBe(true);
});

test('a denied command never runs, and Claude is told why', async ({ request, baseURL }) => {
  await addRules(request, bashRule('deny', 'deny', `touch denied-${mark}*`));
  const session = await claude(baseURL!, [bash(`touch denied-${mark}`), say('Understood.')]);
  const { toolResults } = await session.done;
  expect(existsSync(path.join(session.projectDir, `denied-${mark}`))).toBe(false);
  expect(toolResults).toHaveLength(1);
  expect(toolResults[0]).toMatchObject({ isError: true });
  expect(toolResults[0]!.text).toContain('PreToolUse:Bash hook error:');
  expect(toolResults[0]!.text).toContain(`cc-deny-${mark}`);
});

test('a compound command hiding a denied part is denied, and no part of it runs', async ({ request, baseURL }) => {
  await addRules(
    request,
    bashRule('ls', 'allow', 'ls'),
    bashRule('touch', 'allow', `touch compound-${mark}`),
    bashRule('rm', 'deny', `rm -rf victim-${mark}*`),
  );
  const session = await claude(baseURL!, [bash(`touch compound-${mark} && ls && rm -rf victim-${mark}`), say('Ok.')], {
    setup: (dir) => mkdirSync(path.join(dir, `victim-${mark}`)),
  });
  const { toolResults } = await session.done;
  expect(toolResults[0]).toMatchObject({ isError: true });
  expect(toolResults[0]!.text).toContain(`cc-rm-${mark}`);
  expect(existsSync(path.join(session.projectDir, `victim-${mark}`))).toBe(true);
  expect(existsSync(path.join(session.projectDir, `compound-${mark}`))).toBe(false);
});

test('an asking command waits until approved in the browser, then runs', async ({ page, request, baseURL }) => {
  const session = await claude(baseURL!, [bash(`touch asked-${mark}`), say('Done.')]);
  const chat = await openWaitingRun(page, request, session.projectDir);
  await chat.expectDialogFor(`touch asked-${mark}`);
  // Held, not run, while the human looks at it.
  expect(existsSync(path.join(session.projectDir, `asked-${mark}`))).toBe(false);
  await chat.expectArmed();
  await chat.approveOnce.click();
  const { toolResults } = await session.done;
  expect(toolResults).toEqual([expect.objectContaining({ isError: false })]);
  expect(existsSync(path.join(session.projectDir, `asked-${mark}`))).toBe(true);
});

test("a human's deny reason reaches Claude", async ({ page, request, baseURL }) => {
  const session = await claude(baseURL!, [bash(`touch refused-${mark}`), say('Understood.')]);
  const chat = await openWaitingRun(page, request, session.projectDir);
  await chat.expectDialogFor(`touch refused-${mark}`);
  await chat.expectArmed();
  await chat.reason.fill(`not in this repo ${mark}`);
  await chat.deny.click();
  const { toolResults } = await session.done;
  expect(toolResults[0]).toMatchObject({ isError: true });
  expect(toolResults[0]!.text).toContain(`not in this repo ${mark}`);
  expect(existsSync(path.join(session.projectDir, `refused-${mark}`))).toBe(false);
});

test('Always Allow makes the next similar call of the session silent', async ({ page, request, baseURL }) => {
  const session = await claude(baseURL!, [
    bash(`touch always-${mark}-1`),
    bash(`touch always-${mark}-2`),
    say('Both done.'),
  ]);
  const chat = await openWaitingRun(page, request, session.projectDir);
  await chat.expectDialogFor(`touch always-${mark}-1`);
  await chat.dialog.getByRole('textbox', { name: 'command pattern' }).fill(`touch always-${mark}-*`);
  await chat.expectArmed();
  await chat.alwaysAllow.click();
  const { toolResults } = await session.done;
  expect(toolResults.map((r) => r.isError)).toEqual([false, false]);
  // Nobody answered a second relay: had the second call asked, it would have waited for a human
  // until the deadline and come back denied.
  expect(existsSync(path.join(session.projectDir, `always-${mark}-2`))).toBe(true);
});

test('Gatehouse unreachable means nothing runs (onFailure: block), where a hook without it lets the call through', async () => {
  // A port nothing listens on: the hook's connection is refused.
  const down = 'http://127.0.0.1:9/api/hooks/claude-code';
  const blocked = await startClaudeCode({
    steps: [bash(`touch down-${mark}`), say('Ok.')],
    hookUrl: down,
    token: E2E_ADMIN_TOKEN,
    permissionMode: 'bypassPermissions',
  });
  const { toolResults } = await blocked.done;
  expect(toolResults[0]!.text).toContain('blocking because onFailure is "block"');
  expect(existsSync(path.join(blocked.projectDir, `down-${mark}`))).toBe(false);

  // The control: the same set-up without onFailure runs the call, so the check above can fail.
  const open = await startClaudeCode({
    steps: [bash(`touch down-${mark}`), say('Ok.')],
    hookUrl: down,
    token: E2E_ADMIN_TOKEN,
    permissionMode: 'bypassPermissions',
    onFailure: null,
  });
  await open.done;
  expect(existsSync(path.join(open.projectDir, `down-${mark}`))).toBe(true);
});
