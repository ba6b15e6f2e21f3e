// bash: runs a command with /bin/bash -c in the workspace, for real. Hard limits whatever the
// policy says: a time limit, an output cap, a scrubbed environment, and the command's whole
// process group is killed on timeout, on abort, and when the command ends (nothing outlives it).
// Commands start through a small spawn helper process when it is up (spawn-helper.ts).
import { mkdir, realpath } from 'node:fs/promises';
import { z } from 'zod';
import { prepareCommands, startCommand } from '../exec/spawn-helper';
import { CappedBuffer } from './truncate';
import { ToolError, type ToolContext, type ToolDefinition, type ToolResult } from './types';

export interface BashToolOptions {
  /** Time limit per command (default 60 s). */
  timeoutMs?: number;
  /** Cap on stdout and stderr together (default 64 KiB). */
  maxOutputBytes?: number;
}

export const BASH_DEFAULT_TIMEOUT_MS = 60_000;
export const BASH_DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
/** After bash exits, how long a detached straggler may keep the output pipes open. */
const DRAIN_AFTER_EXIT_MS = 1_000;

const inputSchema = z.object({
  command: z.string().min(1).describe('The bash command to run in the workspace directory.'),
});
export type BashInput = z.infer<typeof inputSchema>;

/** The only variables the command sees: nothing from the server's environment (no secrets). */
export function scrubbedEnv(workspace: string): Record<string, string> {
  return { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: workspace, LANG: 'C.UTF-8', TERM: 'dumb' };
}

export function createBashTool(options: BashToolOptions = {}): ToolDefinition<BashInput> {
  const timeoutMs = options.timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS;
  const maxOutputBytes = options.maxOutputBytes ?? BASH_DEFAULT_MAX_OUTPUT_BYTES;
  return {
    name: 'bash',
    description:
      `Run a bash command in the workspace directory (stdin closed, no secrets in the environment). ` +
      `Time limit ${Math.round(timeoutMs / 1000)} s; output (stdout and stderr together) is cut at ${Math.round(maxOutputBytes / 1024)} KiB. ` +
      `Background processes are killed when the command ends.`,
    inputSchema,
    risk: 'write',
    paramKinds: { command: 'command' },
    execute: (input, ctx) => runBash(input.command, ctx, timeoutMs, maxOutputBytes),
  };
}

export const bashTool = createBashTool();

/** Starts the spawn helper with a bash ready for this workspace (its real path, as the tools see it), so the first command is quick too. */
export async function warmBash(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const workspace = await realpath(dir);
  prepareCommands({ cwd: workspace, env: scrubbedEnv(workspace) });
}

type Stop = 'timeout' | 'aborted';
type Exit = { code: number | null; signal: NodeJS.Signals | null };

/**
 * What ended the command. A kill only counts if it took effect: bash killed by a signal (or its
 * end never seen). A command that exited on its own before the kill reached it (a cancel that
 * arrived while its exit report was on the way) ended by itself, and says so.
 */
function endingOf(stop: Stop | undefined, exit: Exit | undefined): 'exited' | 'exited-before-stop' | Stop {
  if (!stop) return 'exited';
  return exit && exit.code !== null ? 'exited-before-stop' : stop;
}

function runBash(command: string, ctx: ToolContext, timeoutMs: number, maxOutputBytes: number): Promise<ToolResult> {
  if (ctx.signal.aborted)
    return Promise.resolve({ output: '[aborted before start]', isError: true, metadata: { aborted: true } });
  return new Promise<ToolResult>((resolve, reject) => {
    const started = Date.now();
    const output = new CappedBuffer(maxOutputBytes);
    let stop: Stop | undefined;
    let exit: Exit | undefined;
    let settled = false;
    let abandonedPipes = false;
    let lost: string | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const stopWith = (why: Stop) => {
      if (!stop && !exit) stop = why;
      handle.kill();
    };
    const timer = setTimeout(() => stopWith('timeout'), timeoutMs);
    const onAbort = () => stopWith('aborted');
    const cleanup = () => {
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      ctx.signal.removeEventListener('abort', onAbort);
    };
    const finish = () => {
      if (settled) return;
      cleanup();
      handle.release();
      resolve(
        result(output, stop, exit, timeoutMs, Date.now() - started, abandonedPipes, lost, handle.via, handle.warm),
      );
    };

    // The spawn helper (or a direct spawn) starts bash in a new process group: stdin closed, the
    // scrubbed environment, the workspace as cwd; kill() reaches everything it started.
    const handle = startCommand(
      { command, cwd: ctx.workspace, env: scrubbedEnv(ctx.workspace), maxOutputBytes },
      {
        onData: (chunk) => output.push(chunk),
        onError: (error) => {
          if (settled) return;
          cleanup();
          reject(new ToolError('failed', `Could not start /bin/bash: ${error.message}`));
        },
        onExit: (code, signal) => {
          exit = { code, signal };
          // Something that left the group (setsid) may still hold the pipes: stop waiting for it.
          drainTimer = setTimeout(() => {
            abandonedPipes = true;
            finish();
          }, DRAIN_AFTER_EXIT_MS);
        },
        // 'close' comes once every holder of the pipes is gone and all output has been read.
        onClose: (total) => {
          if (total !== undefined) output.total = Math.max(output.total, total);
          finish();
        },
        onLost: (message) => {
          lost = message;
          finish();
        },
      },
    );
    ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
}

function result(
  output: CappedBuffer,
  stop: Stop | undefined,
  exit: Exit | undefined,
  timeoutMs: number,
  durationMs: number,
  abandonedPipes: boolean,
  lost: string | undefined,
  via: 'helper' | 'direct',
  warm: boolean,
): ToolResult {
  let text = output.text();
  const notes: string[] = [];
  const ending = endingOf(stop, exit);
  if (ending === 'timeout') notes.push(`[timed out after ${formatSeconds(timeoutMs)}; process group killed]`);
  else if (ending === 'aborted') notes.push('[aborted: run cancelled; process group killed]');
  else if (exit?.signal) notes.push(`[killed by ${exit.signal}]`);
  else if (exit?.code !== 0 && exit?.code !== undefined && exit.code !== null) notes.push(`[exit code ${exit.code}]`);
  if (ending === 'exited-before-stop' && stop === 'aborted')
    notes.push('[the run was cancelled after the command had exited]');
  if (abandonedPipes) notes.push('[a detached process kept the output open; stopped reading]');
  if (lost) notes.push(`[${lost}]`);
  if (text === '' && notes.length === 0) text = '(no output)';
  const isError = ending === 'timeout' || ending === 'aborted' || exit?.code !== 0 || lost !== undefined;
  const separator = text === '' || text.endsWith('\n') ? '' : '\n';
  return {
    output: notes.length === 0 ? text : text + separator + notes.join('\n'),
    ...(isError ? { isError: true } : {}),
    ...(output.truncated ? { truncated: true } : {}),
    metadata: {
      exitCode: exit?.code ?? null,
      signal: exit?.signal ?? null,
      timedOut: ending === 'timeout',
      aborted: ending === 'aborted',
      cancelledAfterExit: ending === 'exited-before-stop' && stop === 'aborted',
      outputBytes: output.total,
      durationMs,
      spawnedVia: via,
      warmStart: warm,
    },
  };
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
