// The real Gemini CLI (0.61.0, headless `-p --yolo`) guarded by Gatehouse through a BeforeTool
// command hook (scripts/gatehouse-hook.mjs, set up by the documented settings block). With --yolo
// Gemini CLI would run every call on its own: the hook is the only gate, and "nothing ran" means
// Gatehouse stopped it. The model is the Gemini API stand-in, which records what it was told.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './support/auth';
import { geminiCliHookSettings } from '../lib/contract/gemini-cli-settings';
import { provisionGeminiCli, startGeminiCli, stopGeminiCli, type GeminiCliOptions } from './support/gemini-cli';
import { reply, shell } from './support/gemini-stand-in';
import { addRules, marker, removeRules } from './support/policy-api';

// One Gemini CLI process per test, each a few seconds.
test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(() => {
  const cli = provisionGeminiCli();
  // As the Claude Code spec: a machine without the CLI fails, with the installer's reason (never a skip).
  if ('error' in cli) throw new Error(cli.error);
});

let mark: string;
test.beforeEach(() => {
  mark = marker();
});
test.afterEach(async ({ request }) => {
  await stopGeminiCli();
  await removeRules(request, mark);
});

const HOOK_SCRIPT = path.join(process.cwd(), 'scripts', 'gatehouse-hook.mjs');
const settingsFor = (baseUrl: string) => geminiCliHookSettings({ baseUrl, hookScript: HOOK_SCRIPT, deadlineS: 45 });

function gemini(baseURL: string, steps: GeminiCliOptions['steps']) {
  return startGeminiCli({ steps, settings: settingsFor(baseURL), token: E2E_ADMIN_TOKEN });
}

const bashRule = (id: string, action: 'allow' | 'deny', command: string) => ({
  id: `gm-${id}-${mark}`,
  action,
  tool: 'bash',
  agent: 'gemini-cli',
  params: { command },
  description: `gemini-cli e2e ${id} ${mark}`,
});

/** The relay the Gemini CLI run of `projectDir` waits on (API). */
async function pendingRelay(request: APIRequestContext, projectDir: string) {
  let relay: { id: string; sessionId: string } | undefined;
  await expect
    .poll(
      async () => {
        const runs = (await (await request.get('/api/runs')).json()) as { items: { id: string; title: string }[] };
        const run = runs.items.find((r) => r.title === projectDir);
        if (!run) return undefined;
        const view = (await (await request.get(`/api/runs/${run.id}`)).json()) as {
          pendingRelays: { id: string; sessionId: string }[];
        };
        relay = view.pendingRelays[0];
        return relay?.id;
      },
      { timeout: 30_000 },
    )
    .toBeTruthy();
  return relay!;
}

test('an allowed command runs with no human', async ({ request, baseURL }) => {
  await addRules(request, bashRule('allow', 'allow', `touch allowed-${mark}`));
  const session = await gemini(baseURL!, [shell(`touch allowed-${mark}`), reply('Done.')]);
  const { functionResponses, output } = await session.done;
  expect(functionResponses, output).toEqual([expect.objectContaining({ name: 'run_shell_command', error: undefined })]);
  expect(existsSync(path.join(session.projectDir, `allowed-${mark}`))).toBe(true);
});

test('a denied command never runs, and the model is told why', async ({ request, baseURL }) => {
  await addRules(request, bashRule('deny', 'deny', `touch denied-${mark}*`));
  const session = await gemini(baseURL!, [shell(`touch denied-${mark}`), reply('Understood.')]);
  const { functionResponses, output } = await session.done;
  expect(existsSync(path.join(session.projectDir, `denied-${mark}`))).toBe(false);
  expect(functionResponses, output).toHaveLength(1);
  expect(functionResponses[0]!.error).toContain('Tool execution blocked:');
  expect(functionResponses[0]!.error).toContain(`gm-deny-${mark}`);
});

test('an asking command waits for a person in Gatehouse, then runs', async ({ request, baseURL }) => {
  const session = await gemini(baseURL!, [shell(`touch asked-${mark}`), reply('Done.')]);
  const relay = await pendingRelay(request, session.projectDir);
  // Held, not run, while the person looks at it.
  expect(existsSync(path.join(session.projectDir, `asked-${mark}`))).toBe(false);
  const decided = await request.post(`/api/chat/relay/${relay.id}`, {
    data: { sessionId: relay.sessionId, response: { approved: true } },
  });
  expect(decided.status()).toBe(200);
  const { functionResponses, output } = await session.done;
  expect(functionResponses, output).toEqual([expect.objectContaining({ error: undefined })]);
  expect(existsSync(path.join(session.projectDir, `asked-${mark}`))).toBe(true);
});

test('Gatehouse unreachable means nothing runs', async ({ request }) => {
  // Even a command the policy allows: without Gatehouse's answer nothing runs.
  await addRules(request, bashRule('down', 'allow', `touch down-${mark}`));
  const session = await startGeminiCli({
    steps: [shell(`touch down-${mark}`), reply('Ok.')],
    settings: settingsFor('http://127.0.0.1:9'),
    token: E2E_ADMIN_TOKEN,
  });
  const { functionResponses, output } = await session.done;
  expect(existsSync(path.join(session.projectDir, `down-${mark}`))).toBe(false);
  expect(functionResponses[0]?.error, output).toMatch(/Tool execution blocked: .*unreachable/);
});
