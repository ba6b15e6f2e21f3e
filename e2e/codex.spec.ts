// The real Codex CLI (0.169.0, headless `codex exec` with its own approvals and sandbox off)
// guarded by Gatehouse through a PreToolUse command hook (scripts/gatehouse-hook.mjs --codex, set
// up by the documented hooks.json block). Codex would run every call on its own: the hook is the
// only gate, and "nothing ran" means Gatehouse stopped it. The model is the Responses API
// stand-in, which records what it was told.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN_TOKEN } from './support/auth';
import { codexHookSettings } from '../lib/contract/codex-settings';
import { provisionCodex, startCodex, stopCodex, type CodexOptions } from './support/codex';
import { applyPatch, reply, shell } from './support/codex-stand-in';
import { addRules, marker, removeRules } from './support/policy-api';

// One Codex process per test, each a second or two.
test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(() => {
  const cli = provisionCodex();
  // As the Claude Code spec: a machine without the CLI fails, with the installer's reason (never a skip).
  if ('error' in cli) throw new Error(cli.error);
});

let mark: string;
test.beforeEach(() => {
  mark = marker();
});
test.afterEach(async ({ request }) => {
  await stopCodex();
  await removeRules(request, mark);
});

const HOOK_SCRIPT = path.join(process.cwd(), 'scripts', 'gatehouse-hook.mjs');
const hooksFor = (baseUrl: string) => codexHookSettings({ baseUrl, hookScript: HOOK_SCRIPT, deadlineS: 45 });

function codex(baseURL: string, steps: CodexOptions['steps']) {
  return startCodex({ steps, hooks: hooksFor(baseURL), token: E2E_ADMIN_TOKEN });
}

const rule = (id: string, action: 'allow' | 'deny', tool: string, params: Record<string, string>) => ({
  id: `cx-${id}-${mark}`,
  action,
  tool,
  agent: 'codex',
  params,
  description: `codex e2e ${id} ${mark}`,
});

/** The relay the Codex run of `projectDir` waits on (API). */
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

const BLOCKED = 'Command blocked by PreToolUse hook:';

test('an allowed command runs with no human, and cannot read the hook’s token', async ({ request, baseURL }) => {
  await addRules(
    request,
    rule('allow', 'allow', 'bash', { command: `touch allowed-${mark}` }),
    rule('env', 'allow', 'bash', { command: 'printenv GATEHOUSE_TOKEN' }),
  );
  const session = await codex(baseURL!, [
    shell(`touch allowed-${mark}`),
    shell('printenv GATEHOUSE_TOKEN'),
    reply('Done.'),
  ]);
  const { toolOutputs, output } = await session.done;
  expect(toolOutputs, output).toHaveLength(2);
  expect(toolOutputs[0]!.output).toContain('Process exited with code 0');
  expect(existsSync(path.join(session.projectDir, `allowed-${mark}`))).toBe(true);
  // shell_environment_policy.exclude keeps GATEHOUSE_TOKEN from the model's commands.
  expect(toolOutputs[1]!.output).toContain('Process exited with code 1');
  expect(toolOutputs[1]!.output).not.toContain(E2E_ADMIN_TOKEN);
});

test('a denied command never runs, and the model is told why', async ({ request, baseURL }) => {
  await addRules(request, rule('deny', 'deny', 'bash', { command: `touch denied-${mark}*` }));
  const session = await codex(baseURL!, [shell(`touch denied-${mark}`), reply('Understood.')]);
  const { toolOutputs, output } = await session.done;
  expect(existsSync(path.join(session.projectDir, `denied-${mark}`))).toBe(false);
  expect(toolOutputs, output).toHaveLength(1);
  expect(toolOutputs[0]!.output).toContain(BLOCKED);
  expect(toolOutputs[0]!.output).toContain(`cx-deny-${mark}`);
});

test('a patch runs only when every file it touches is allowed', async ({ request, baseURL }) => {
  await addRules(
    request,
    rule('ok', 'allow', 'write_file', { path: `**/ok-${mark}.txt` }),
    rule('secret', 'deny', 'write_file', { path: `**/secret-${mark}.txt` }),
  );
  const patch = (...files: string[]) =>
    ['*** Begin Patch', ...files.flatMap((f) => [`*** Add File: ${f}`, '+hello']), '*** End Patch', ''].join('\n');
  const session = await codex(baseURL!, [
    applyPatch(patch(`ok-${mark}.txt`, `secret-${mark}.txt`)),
    applyPatch(patch(`ok-${mark}.txt`)),
    reply('Done.'),
  ]);
  const { toolOutputs, output } = await session.done;
  expect(toolOutputs, output).toHaveLength(2);
  expect(toolOutputs[0]!.output).toContain(`cx-secret-${mark}`);
  expect(existsSync(path.join(session.projectDir, `secret-${mark}.txt`))).toBe(false);
  expect(toolOutputs[1]!.output).not.toContain(BLOCKED);
  expect(existsSync(path.join(session.projectDir, `ok-${mark}.txt`))).toBe(true);
});

test('an asking command waits for a person in Gatehouse, then runs', async ({ request, baseURL }) => {
  const session = await codex(baseURL!, [shell(`touch asked-${mark}`), reply('Done.')]);
  const relay = await pendingRelay(request, session.projectDir);
  // Held, not run, while the person looks at it.
  expect(existsSync(path.join(session.projectDir, `asked-${mark}`))).toBe(false);
  const decided = await request.post(`/api/chat/relay/${relay.id}`, {
    data: { sessionId: relay.sessionId, response: { approved: true } },
  });
  expect(decided.status()).toBe(200);
  const { toolOutputs, output } = await session.done;
  expect(toolOutputs, output).toHaveLength(1);
  expect(toolOutputs[0]!.output).not.toContain(BLOCKED);
  expect(existsSync(path.join(session.projectDir, `asked-${mark}`))).toBe(true);
});

test('Gatehouse unreachable means nothing runs', async ({ request }) => {
  // Even a command the policy allows: without Gatehouse's answer nothing runs.
  await addRules(request, rule('down', 'allow', 'bash', { command: `touch down-${mark}` }));
  const session = await startCodex({
    steps: [shell(`touch down-${mark}`), reply('Ok.')],
    hooks: hooksFor('http://127.0.0.1:9'),
    token: E2E_ADMIN_TOKEN,
  });
  const { toolOutputs, output } = await session.done;
  expect(existsSync(path.join(session.projectDir, `down-${mark}`))).toBe(false);
  expect(toolOutputs[0]?.output, output).toMatch(/Command blocked by PreToolUse hook: .*unreachable/);
});
