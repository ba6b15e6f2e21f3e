// Runs the real Codex CLI headless (`codex exec` with its own approvals and sandbox off, so the
// hook is the only gate) against the Responses API stand-in, in a temporary HOME, CODEX_HOME and
// project; CODEX_HOME/hooks.json is the block Gatehouse documents (lib/contract/codex-settings.ts).
// One process per test; the CLI is provisioned by scripts/ensure-cli.mjs, and a machine that
// cannot have it fails the spec with that script's reason.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { provisionCli } from './cli-provision';
import { startCodexStandIn, toolOutputs, type CodexStandIn, type CodexStep, type ToolOutput } from './codex-stand-in';

/** The CLI path, installed on first use (a no-op when present), or the installer's reason. */
export const provisionCodex = () => provisionCli('codex', 'Codex CLI');

export interface CodexOptions {
  /** What the model does: steps[k] answers the request carrying k tool outputs. */
  steps: CodexStep[];
  /** CODEX_HOME/hooks.json (the hook block). */
  hooks: object;
  token: string;
  /** Upper bound on the whole process (ms), far above a run's few seconds. */
  limitMs?: number;
}

export interface CodexResult {
  exitCode: number | null;
  /** What the model was told about each call, from the last request. */
  toolOutputs: ToolOutput[];
  output: string;
}

export interface CodexSession {
  projectDir: string;
  standIn: CodexStandIn;
  done: Promise<CodexResult>;
}

const cleanups = new Set<() => Promise<void>>();

/** Stops every Codex process and stand-in still running and removes their folders (afterEach). */
export async function stopCodex(): Promise<void> {
  await Promise.all([...cleanups].map((cleanup) => cleanup()));
}

/** config.toml: the stand-in as the model provider, the token kept from the model's commands (as the README says). */
const config = (standInUrl: string) => `model = "gpt-5.5"
model_provider = "standin"
check_for_update_on_startup = false

[model_providers.standin]
name = "Gatehouse e2e stand-in"
base_url = "${standInUrl}"
env_key = "GATEHOUSE_E2E_MODEL_KEY"
wire_api = "responses"

[shell_environment_policy]
exclude = ["GATEHOUSE_TOKEN"]
`;

/** Starts `codex exec` in a fresh project; `done` settles when it exits. */
export async function startCodex(options: CodexOptions): Promise<CodexSession> {
  const cli = provisionCodex();
  if ('error' in cli) throw new Error(cli.error);
  const standIn = await startCodexStandIn(options.steps);
  const home = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-codex-home-'));
  const projectDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-codex-project-'));
  const codexHome = path.join(home, '.codex');
  mkdirSync(codexHome);
  writeFileSync(path.join(codexHome, 'config.toml'), config(standIn.url));
  writeFileSync(path.join(codexHome, 'hooks.json'), JSON.stringify(options.hooks, null, 2));

  // Only what the CLI needs: nothing of the developer's own Codex set-up or keys leaks in.
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    CODEX_HOME: codexHome,
    GATEHOUSE_E2E_MODEL_KEY: 'test',
    GATEHOUSE_TOKEN: options.token,
  };
  const args = [
    'exec',
    '--skip-git-repo-check',
    // Codex's own approvals and sandbox off: the hook is the only gate.
    '--dangerously-bypass-approvals-and-sandbox',
    // exec has no trust review; the hook file is the one this test wrote.
    '--dangerously-bypass-hook-trust',
    '-C',
    projectDir,
    'Run the command, please.',
  ];
  const child = spawn(cli.bin, args, {
    cwd: projectDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: env as NodeJS.ProcessEnv,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));

  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code));
  });
  const limitMs = options.limitMs ?? 45_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const done = exited.then((exitCode) => {
    clearTimeout(timer);
    const last = standIn.requests.at(-1);
    if (!last)
      throw new Error(`codex exec exited ${exitCode} without asking the model (limit ${limitMs} ms)\n${output}`);
    return { exitCode, output, toolOutputs: toolOutputs(last) };
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
