// Runs the real Gemini CLI headless (`gemini -p ... --yolo`, so its own approval never asks and the
// hook is the only gate) against the Gemini API stand-in, in a temporary HOME and project whose
// .gemini/settings.json is the block Gatehouse documents (lib/contract/gemini-cli-settings.ts).
// One process per test; the CLI is provisioned by scripts/ensure-cli.mjs, and a machine
// that cannot have it fails the spec with that script's reason.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { provisionCli } from './cli-provision';
import {
  functionResponses,
  startGeminiStandIn,
  type FunctionResponse,
  type GeminiStandIn,
  type GeminiStep,
} from './gemini-stand-in';

/** The CLI path, installed on first use (a no-op when present), or the installer's reason. */
export const provisionGeminiCli = () => provisionCli('gemini-cli', 'Gemini CLI');

export interface GeminiCliOptions {
  /** What the model does: steps[k] answers the main-loop request carrying k function responses. */
  steps: GeminiStep[];
  /** The project's `.gemini/settings.json` (the hook block). */
  settings: object;
  token: string;
  /** Upper bound on the whole process (ms), far above a run's few seconds. */
  limitMs?: number;
}

export interface GeminiCliResult {
  exitCode: number | null;
  /** What the model was told about each call, from the last main-loop request. */
  functionResponses: FunctionResponse[];
  output: string;
}

export interface GeminiCliSession {
  projectDir: string;
  standIn: GeminiStandIn;
  done: Promise<GeminiCliResult>;
}

const cleanups = new Set<() => Promise<void>>();

/** Stops every Gemini CLI process and stand-in still running and removes their folders (afterEach). */
export async function stopGeminiCli(): Promise<void> {
  await Promise.all([...cleanups].map((cleanup) => cleanup()));
}

// The user settings: API-key auth (against the stand-in), nothing phoning home.
const USER_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

/** Starts `gemini -p` in a fresh project; `done` settles when it exits. */
export async function startGeminiCli(options: GeminiCliOptions): Promise<GeminiCliSession> {
  const cli = provisionGeminiCli();
  if ('error' in cli) throw new Error(cli.error);
  const standIn = await startGeminiStandIn(options.steps);
  const home = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-gemini-home-'));
  const projectDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-gemini-project-'));
  mkdirSync(path.join(home, '.gemini'));
  writeFileSync(path.join(home, '.gemini', 'settings.json'), JSON.stringify(USER_SETTINGS));
  mkdirSync(path.join(projectDir, '.gemini'));
  writeFileSync(path.join(projectDir, '.gemini', 'settings.json'), JSON.stringify(options.settings, null, 2));

  // Only what the CLI needs: nothing of the developer's own Gemini set-up or keys leaks in.
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    GEMINI_API_KEY: 'test',
    GOOGLE_GEMINI_BASE_URL: standIn.url,
    GEMINI_CLI_TRUST_WORKSPACE: 'true',
    GEMINI_TELEMETRY_ENABLED: 'false',
    GATEHOUSE_TOKEN: options.token,
  };
  // An explicit model: with the default (`auto`) the CLI first asks a router model which to use.
  const args = ['-m', 'gemini-2.5-flash', '-p', 'Run the command, please.', '--yolo', '--output-format', 'stream-json'];
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
  const limitMs = options.limitMs ?? 60_000;
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  const done = exited.then((exitCode) => {
    clearTimeout(timer);
    const last = standIn.requests.at(-1);
    if (!last)
      throw new Error(`gemini -p exited ${exitCode} without asking the model (limit ${limitMs} ms)\n${output}`);
    return { exitCode, output, functionResponses: functionResponses(last) };
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
