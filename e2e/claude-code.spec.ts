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
import { claudeCodeHookSettings } from '../lib/contract/claude-code-settings';
import { patchHooks, startClaudeCode, stopClaudeCode, type ClaudeCodeOptions } from './support/claude-code';
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

/** The settings block the Connect page shows for this server: a 45 s approval deadline. */
const generated = (baseURL: string) => claudeCodeHookSettings({ baseUrl: baseURL, deadlineS: 45 });

function claude(baseURL: string, steps: ClaudeCodeOptions['steps'], extra: Partial<ClaudeCodeOptions> = {}) {
  return startClaudeCode({
    steps,
    settings: generated(baseURL),
    token: E2E_ADMIN_TOKEN,
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

interface RunView {
  pendingRelays: { id: string; runId: string; sessionId: string }[];
}

/** The relay the Claude Code run of `projectDir` waits on (API). */
async function pendingRelay(request: APIRequestContext, projectDir: string) {
  let relay: RunView['pendingRelays'][number] | undefined;
  await expect
    .poll(
      async () => {
        const runs = (await (await request.get('/api/runs')).json()) as { items: { id: string; title: string }[] };
        const run = runs.items.find((r) => r.title === projectDir);
        if (!run) return undefined;
        relay = ((await (await request.get(`/api/runs/${run.id}`)).json()) as RunView).pendingRelays[0];
        return relay?.id;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  return relay!;
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
  // Beside the call the policy judged, the call as Claude Code sent it.
  await expect(chat.dialog.getByRole('heading', { name: 'As claude-code sent it (Bash)' })).toBeVisible();
  await expect(chat.dialog.getByLabel('As claude-code sent it')).toContainText(`touch asked-${mark}`);
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

test('Claude Code giving up first (its hook timeout) cancels the relay: nothing runs, and a late approval is refused', async ({
  request,
  baseURL,
}) => {
  // Misconfigured on purpose: Gatehouse's deadline (45 s) is longer than the hook's timeout (5 s).
  const session = await claude(baseURL!, [bash(`touch late-${mark}`), say('Ok.')], {
    settings: patchHooks(generated(baseURL!), { timeout: 5 }),
  });
  const relay = await pendingRelay(request, session.projectDir);
  const { toolResults } = await session.done;
  expect(toolResults[0]!.text).toContain('timed out; blocking because onFailure is "block"');
  await expect
    .poll(async () => ((await (await request.get(`/api/runs/${relay.runId}`)).json()) as RunView).pendingRelays.length)
    .toBe(0);
  const late = await request.post(`/api/chat/relay/${relay.id}`, {
    data: { sessionId: relay.sessionId, response: { approved: true } },
  });
  expect(late.status()).toBe(409);
  expect(existsSync(path.join(session.projectDir, `late-${mark}`))).toBe(false);
});

test('Gatehouse unreachable means nothing runs (onFailure: block), where a hook without it lets the call through', async ({
  baseURL,
}) => {
  // The generated block, pointed at a port nothing listens on: the hook's connection is refused.
  const down = 'http://127.0.0.1:9/api/hooks/claude-code?deadline=45';
  const blocked = await claude(baseURL!, [bash(`touch down-${mark}`), say('Ok.')], {
    settings: patchHooks(generated(baseURL!), { url: down }),
  });
  const { toolResults } = await blocked.done;
  expect(toolResults[0]!.text).toContain('blocking because onFailure is "block"');
  expect(existsSync(path.join(blocked.projectDir, `down-${mark}`))).toBe(false);

  // The control: the same set-up without onFailure runs the call, so the check above can fail.
  const open = await claude(baseURL!, [bash(`touch down-${mark}`), say('Ok.')], {
    settings: patchHooks(generated(baseURL!), { url: down, onFailure: null }),
  });
  await open.done;
  expect(existsSync(path.join(open.projectDir, `down-${mark}`))).toBe(true);
});
