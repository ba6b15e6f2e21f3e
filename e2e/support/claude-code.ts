// Runs the real Claude Code CLI headless (`claude -p`) against the Messages API stand-in, in a
// temporary HOME and project whose .claude/settings.json is the block Gatehouse generates (the
// Connect page's), or a patched copy (a URL that is down, a shorter timeout, no onFailure). One
// process per test; the CLI is provisioned by scripts/ensure-cli.mjs, and a machine
// without it fails the spec with that script's reason.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ClaudeCodeHookSettings } from '../../lib/contract/claude-code-settings';
import { provisionCli } from './cli-provision';
import {
  startAnthropicStandIn,
  toolResults,
  type AnthropicStandIn,
  type Step,
  type ToolResult,
} from './anthropic-stand-in';

/** A copy of `settings` with every hook changed by `patch` (another URL or timeout; `onFailure` left out). */
export function patchHooks(
  settings: ClaudeCodeHookSettings,
  patch: { url?: string; timeout?: number; onFailure?: null },
) {
  const hooks = settings.hooks.PreToolUse.map((entry) => ({
    ...entry,
    hooks: entry.hooks.map((hook) => {
      const { onFailure, ...rest } = {
        ...hook,
        ...(patch.url ? { url: patch.url } : {}),
        ...(patch.timeout ? { timeout: patch.timeout } : {}),
      };
      return patch.onFailure === null ? rest : { ...rest, onFailure };
    }),
  }));
  return { hooks: { PreToolUse: hooks } };
}

export interface ClaudeCodeOptions {
  /** What the model does: steps[k] answers the main-loop request carrying k tool results. */
  steps: Step[];
  /** `.claude/settings.json`: the block Gatehouse generates (lib/contract), maybe patched. */
  settings: object;
  token: string;
  /**
   * `bypassPermissions`: Claude Code would run everything on its own, so the hook is the only
   * gate (as root it needs IS_SANDBOX=1). `default`: its own rules apply when the hook decides nothing.
   */
  permissionMode?: 'default' | 'bypassPermissions';
  /** Prepares the project folder before Claude Code starts (e.g. a file a command must not remove). */
  setup?: (projectDir: string) => void;
  /** Upper bound on the whole process (ms), far above a run's few seconds. */
  limitMs?: number;
}

export interface ClaudeCodeResult {
  exitCode: number | null;
  /** `--output-format json`'s final object: the reply, and the calls that were refused. */
  output: { result?: string; is_error?: boolean; permission_denials?: { tool_input: { command?: string } }[] };
  /** The tool results of the last main-loop request: what Claude was told about each call. */
  toolResults: ToolResult[];
}

export interface ClaudeCodeSession {
  projectDir: string;
  standIn: AnthropicStandIn;
  done: Promise<ClaudeCodeResult>;
}

/** The CLI path; installs it on first use (a no-op when present), or throws the installer's reason. */
function claudeCodeCli(): string {
  const cli = provisionCli('claude-code', 'Claude Code CLI');
  if ('error' in cli) throw new Error(cli.error);
  return cli.bin;
}

const cleanups = new Set<() => Promise<void>>();

/** Stops every Claude Code process and stand-in still running and removes their folders (afterEach). */
export async function stopClaudeCode(): Promise<void> {
  await Promise.all([...cleanups].map((cleanup) => cleanup()));
}

/** Starts `claude -p` in a fresh project; `done` settles when it exits. */
export async function startClaudeCode(options: ClaudeCodeOptions): Promise<ClaudeCodeSession> {
  const bin = claudeCodeCli();
  const standIn = await startAnthropicStandIn(options.steps);
  const home = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cc-home-'));
  const projectDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-cc-project-'));
  mkdirSync(path.join(projectDir, '.claude'));
  writeFileSync(path.join(projectDir, '.claude', 'settings.json'), JSON.stringify(options.settings, null, 2));
  options.setup?.(projectDir);

  const mode = options.permissionMode ?? 'default';
  // Only what the CLI needs: nothing of the developer's own Claude Code set-up or keys leaks in.
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_BASE_URL: standIn.url,
    ANTHROPIC_API_KEY: 'test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    GATEHOUSE_TOKEN: options.token,
    ...(mode === 'bypassPermissions' ? { IS_SANDBOX: '1' } : {}),
  };
  const child = spawn(bin, ['-p', 'Run the command, please.', '--output-format', 'json', '--permission-mode', mode], {
    cwd: projectDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env as NodeJS.ProcessEnv,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));

  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  const limitMs = options.limitMs ?? 90_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const done = exited.then((exitCode) => {
    clearTimeout(timer);
    let output: ClaudeCodeResult['output'];
    try {
      output = JSON.parse(stdout) as ClaudeCodeResult['output'];
    } catch {
      throw new Error(
        `claude -p exited ${exitCode} without its JSON result (limit ${limitMs} ms)\n${stdout}\n${stderr}`,
      );
    }
    const last = standIn.requests.filter((r) => r.mainLoop).at(-1);
    return { exitCode, output, toolResults: last ? toolResults(last.body) : [] };
  });

  const cleanup = async () => {
    cleanups.delete(cleanup);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited.catch(() => null);
    await standIn.close();
    rmSync(home, { recursive: true, force: true });
    rmSync(projectDir, { recursive: true, force: true });
  };
  cleanups.add(cleanup);
  return { projectDir, standIn, done };
}
