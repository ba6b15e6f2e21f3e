// Codex CLI's tool calls (a PreToolUse hook's `tool_name`, `tool_input`, `cwd`) as Gatehouse tool
// calls, so one policy judges every agent. Pure and total: an input of the wrong shape is answered
// `{ ok: false, reason }` naming the field (the hook endpoint denies with it), never a throw and
// never a guess. Names are Codex 0.169.0's: its shell tools reach the hook as `Bash` with a
// `command` string, `apply_patch` with the patch text as `command`, MCP tools as `mcp__<server>__<tool>`.
import path from 'node:path';
import {
  commandIn,
  hookCwd,
  HookInputError as ShapeError,
  MAX_PATH_LENGTH,
  resolvedPath,
  text,
  type HookToolInput,
} from '../hook-input';
import type { ParamKind, Risk } from '../types';

export { MAX_PATH_LENGTH } from '../hook-input';
import { patchTargets, PatchShapeError } from './patch-targets';

export interface CodexCallInput {
  tool_name: unknown;
  tool_input: unknown;
  cwd?: unknown;
}

export interface CodexMappedCall {
  tool: string;
  params: Record<string, unknown>;
  risk: Risk;
  paramKinds?: Record<string, ParamKind>;
}

export interface MappedCodexCall {
  ok: true;
  /** One call, or one per file a patch touches: each must be allowed for the tool to run. */
  calls: CodexMappedCall[];
  /** Codex's own tool name and input, for the human deciding. */
  original: { tool: string; input: unknown };
}

export type CodexMapping = MappedCodexCall | { ok: false; reason: string };

type Input = HookToolInput;

/** The names Codex has given its shell tools (the hook sees `Bash`; the model-facing names too). */
const SHELL_TOOLS = new Set(['Bash', 'shell', 'exec_command', 'local_shell', 'shell_command', 'container.exec']);

/** `bash -lc <script>` and friends: the script is what runs, and what the policy must parse. */
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash']);
const SCRIPT_FLAGS = new Set(['-c', '-lc', '-cl']);

/** A POSIX shell word, quoted only when it needs to be, so `ls -la` stays readable. */
const shellWord = (word: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The one field among `names` the input carries. Two of them would leave which one Codex runs a
 * guess (the policy could judge one while the other runs), so that is a shape error.
 */
function oneOf(input: Input, names: readonly string[]): string {
  const present = names.filter((name) => Object.hasOwn(input, name));
  if (present.length > 1) throw new ShapeError(`tool_input has both ${present.join(' and ')}: only one may be given`);
  return present[0] ?? names[0]!;
}

function noNul(value: string, name: string): string {
  if (value.includes('\u0000')) throw new ShapeError(`tool_input.${name} must not contain a NUL byte`);
  return value;
}

/**
 * The command line the policy judges. A string is the shell script itself. An argv list runs
 * without a shell, so its words are quoted back into one command line (an `&&` word stays a word,
 * never an operator), except `[bash, -lc, script]`, whose script is what the shell will parse.
 */
export function shellCommand(input: Input): string {
  const name = oneOf(input, ['command', 'cmd']);
  const value = input[name];
  if (typeof value === 'string') {
    if (value.trim() === '') throw new ShapeError(`tool_input.${name} must not be empty`);
    return noNul(value, name);
  }
  if (!Array.isArray(value) || value.length === 0) {
    throw new ShapeError(`tool_input.${name} must be a string or a non-empty list of strings`);
  }
  const words = value.map((word, i) => {
    if (typeof word !== 'string') throw new ShapeError(`tool_input.${name}.${i} must be a string`);
    return noNul(word, `${name}.${i}`);
  });
  const [program, flag, script, ...rest] = words;
  if (
    script !== undefined &&
    rest.length === 0 &&
    SHELLS.has(path.posix.basename(program!)) &&
    SCRIPT_FLAGS.has(flag!) &&
    script.trim() !== ''
  ) {
    return script;
  }
  if (words[0]!.trim() === '') throw new ShapeError(`tool_input.${name}.0 must not be empty`);
  return words.map(shellWord).join(' ');
}

/** Where a shell tool's command runs when its input names a directory (`workdir`), resolved against `cwd`. */
function workdir(input: Input, cwd: string | undefined): string | undefined {
  const value = text(input, 'workdir', { optional: true, noNul: true });
  return value === undefined ? undefined : resolvedPath(value, 'workdir', cwd);
}

/** An absolute, lexically normalised path (a `../` escape is kept for the policy to see). */
function resolved(value: string, cwd: string | undefined): string {
  if (value.length > MAX_PATH_LENGTH) throw new ShapeError(`a patch path is longer than ${MAX_PATH_LENGTH} characters`);
  if (path.posix.isAbsolute(value)) return path.posix.resolve(value);
  if (cwd === undefined) throw new ShapeError(`the patch path "${value}" is relative and the hook sent no cwd`);
  return path.posix.resolve(cwd, value);
}

/**
 * apply_patch as one call per file: an added file is a write_file with its content, an updated
 * one an edit_file, a move's destination a write_file, a deleted file `delete_file` (no Gatehouse
 * tool: it asks unless a rule names it).
 */
function applyPatch(input: Input, cwd: string | undefined): CodexMappedCall[] {
  const name = oneOf(input, ['command', 'input', 'patch']);
  const patch = input[name];
  if (typeof patch !== 'string') throw new ShapeError(`tool_input.${name} must be the patch text`);
  let targets;
  try {
    targets = patchTargets(noNul(patch, name));
  } catch (error) {
    if (error instanceof PatchShapeError) throw new ShapeError(`tool_input.${name}: ${error.message}`);
    throw error;
  }
  return targets.map((target) => {
    const file = resolved(target.path, cwd);
    if (target.op === 'add')
      return { tool: 'write_file', params: { path: file, content: target.content }, risk: 'write' };
    if (target.op === 'update') return { tool: 'edit_file', params: { path: file }, risk: 'write' };
    if (target.op === 'move_to') return { tool: 'write_file', params: { path: file }, risk: 'write' };
    return { tool: 'delete_file', params: { path: file }, risk: 'destructive', paramKinds: { path: 'path' } };
  });
}

/**
 * Maps one Codex tool call. Unknown tools (MCP tools `mcp__<server>__<tool>` included) keep their
 * own name with their input as params and risk `write`: the caller makes a tool no rule names ask.
 */
export function mapCodexCall({ tool_name, tool_input, cwd }: CodexCallInput): CodexMapping {
  if (typeof tool_name !== 'string' || tool_name.trim() === '') {
    return { ok: false, reason: 'tool_name must be a non-empty string' };
  }
  if (typeof tool_input !== 'object' || tool_input === null || Array.isArray(tool_input)) {
    return { ok: false, reason: 'tool_input must be an object' };
  }
  const dir = hookCwd(cwd);
  if (dir instanceof ShapeError) return { ok: false, reason: dir.message };
  const input = tool_input as Input;
  const original = { tool: tool_name, input: tool_input };
  try {
    if (SHELL_TOOLS.has(tool_name)) {
      const command = commandIn(shellCommand(input), workdir(input, dir), dir);
      return { ok: true, calls: [{ tool: 'bash', params: { command }, risk: 'write' }], original };
    }
    if (tool_name === 'apply_patch') return { ok: true, calls: applyPatch(input, dir), original };
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, reason: `${tool_name}: ${error.message}` };
    throw error;
  }
  return { ok: true, calls: [{ tool: tool_name, params: { ...input }, risk: 'write' }], original };
}
