// Reading a coding CLI's hook input (`tool_input`, `cwd`) the same way for every adapter
// (claude-code/, gemini-cli/, codex/): a field of the wrong shape throws a HookInputError naming it
// (the adapter answers `{ ok: false, reason }`), never a guess. Paths are resolved against `cwd` and
// normalised, never confined: a `../` escape is exactly what the policy must see. A path the CLI
// would read as another file (`~/...`, white space around it) is refused.
import path from 'node:path';

/** Longest path accepted (Linux's PATH_MAX): a longer one could never be opened anyway. */
export const MAX_PATH_LENGTH = 4096;

export type HookToolInput = Record<string, unknown>;

/** Thrown inside a mapper only; each adapter turns it into `{ ok: false, reason }`. */
export class HookInputError extends Error {}

/** The input's own field (never one inherited from Object.prototype). */
export function field(input: HookToolInput, name: string): unknown {
  return Object.hasOwn(input, name) ? input[name] : undefined;
}

export interface TextOptions {
  optional?: boolean;
  nonEmpty?: boolean;
  /** Refuse a NUL character (it would end the string where the tool reads it, not where the policy does). */
  noNul?: boolean;
}

export function text(input: HookToolInput, name: string, opts: TextOptions = {}): string | undefined {
  const value = field(input, name);
  if (value === undefined && opts.optional) return undefined;
  if (typeof value !== 'string') {
    throw new HookInputError(`tool_input.${name} must be a string${value === undefined ? ' (it is missing)' : ''}`);
  }
  if (opts.nonEmpty && value.trim() === '') throw new HookInputError(`tool_input.${name} must not be empty`);
  if (opts.noNul && value.includes('\u0000'))
    throw new HookInputError(`tool_input.${name} must not contain a NUL byte`);
  return value;
}

export function flag(input: HookToolInput, name: string): boolean | undefined {
  const value = field(input, name);
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new HookInputError(`tool_input.${name} must be true or false`);
  return value;
}

/** An absolute, lexically normalised path: `cwd` for a relative one; no cwd, no mapping. */
export function resolvedPath(value: string, name: string, cwd: string | undefined): string {
  if (value.trim() === '') throw new HookInputError(`tool_input.${name} must not be empty`);
  if (value.includes('\u0000')) throw new HookInputError(`tool_input.${name} must not contain a NUL byte`);
  if (value.length > MAX_PATH_LENGTH) {
    throw new HookInputError(`tool_input.${name} is longer than ${MAX_PATH_LENGTH} characters`);
  }
  // Read differently by the CLI than by a plain resolve: Claude Code trims a path and expands `~`
  // to the user's home, so `~/.ssh/id_rsa` is not `<cwd>/~/.ssh/id_rsa`. Refused, never judged
  // as another file than the one the tool would open.
  if (value !== value.trim())
    throw new HookInputError(`tool_input.${name} has white space around it: send the path without it`);
  if (value.startsWith('~')) throw new HookInputError(`tool_input.${name} starts with ~: send an absolute path`);
  if (path.posix.isAbsolute(value)) return path.posix.resolve(value);
  if (cwd === undefined) throw new HookInputError(`tool_input.${name} is relative and the hook sent no cwd`);
  return path.posix.resolve(cwd, value);
}

/** The params without their undefined members (an optional field the call left out). */
export function withOptional(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
}

/** The hook's `cwd` to resolve against: absolute and normalised, or none (an error for a bad one). */
export function hookCwd(cwd: unknown): string | undefined | HookInputError {
  if (cwd === undefined || cwd === null || cwd === '') return undefined;
  if (typeof cwd !== 'string') return new HookInputError('cwd must be a string');
  if (cwd.includes('\u0000')) return new HookInputError('cwd must not contain a NUL byte');
  if (cwd.length > MAX_PATH_LENGTH) return new HookInputError(`cwd is longer than ${MAX_PATH_LENGTH} characters`);
  if (!path.posix.isAbsolute(cwd)) return new HookInputError('cwd must be an absolute path');
  return path.posix.resolve(cwd);
}

/**
 * A shell command as it runs when the CLI starts it in a directory of its own (a tool input's
 * `dir_path` or `workdir`) instead of the hook's cwd: `cd '<dir>' && <command>`, so the policy
 * resolves the command's relative paths where they will be read, and the human sees where it runs.
 * No directory, or the cwd itself: the command unchanged.
 */
export function commandIn(command: string, dir: string | undefined, cwd: string | undefined): string {
  if (dir === undefined || dir === cwd) return command;
  return `cd '${dir.replace(/'/g, `'\\''`)}' && ${command}`;
}
