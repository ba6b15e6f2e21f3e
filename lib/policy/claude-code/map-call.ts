// Claude Code's tool calls (a hook's `tool_name`, `tool_input`, `cwd`) as Gatehouse tool calls, so
// one policy judges both agents. Pure and total: a `tool_input` of the wrong shape is answered
// `{ ok: false, reason }` naming the field (the hook endpoint denies with it), never a throw and
// never a guess. Paths are resolved against `cwd` and normalised, never confined: a `../` escape
// is exactly what the policy must see.
import {
  field,
  flag,
  hookCwd,
  HookInputError as ShapeError,
  resolvedPath,
  text,
  withOptional,
  type HookToolInput,
} from '../hook-input';
import type { Risk } from '../types';

export { MAX_PATH_LENGTH } from '../hook-input';

export interface ClaudeCodeCallInput {
  tool_name: unknown;
  tool_input: unknown;
  cwd?: unknown;
}

export interface MappedClaudeCodeCall {
  ok: true;
  /** `below`: the path param naming a directory searched with everything below it (Grep, Glob). */
  call: { tool: string; params: Record<string, unknown>; below?: string };
  risk: Risk;
  /** Claude Code's own tool name and input, for the human deciding (a diff from Write/Edit). */
  original: { tool: string; input: unknown };
}

export type ClaudeCodeMapping = MappedClaudeCodeCall | { ok: false; reason: string };

type Input = HookToolInput;
type Mapper = (input: Input, cwd: string | undefined) => MappedClaudeCodeCall['call'];

function filePath(input: Input, name: string, cwd: string | undefined): string {
  return resolvedPath(text(input, name)!, name, cwd);
}

/** Glob, Grep and LS search a directory: the call's `cwd` when they name none. */
function searchRoot(input: Input, name: string, cwd: string | undefined): string {
  const value = text(input, name, { optional: true });
  if (value !== undefined) return resolvedPath(value, name, cwd);
  if (cwd === undefined) throw new ShapeError(`tool_input.${name} is missing and the hook sent no cwd`);
  return cwd;
}

function edits(input: Input): { old: string; new: string; replace_all?: boolean }[] {
  const value = field(input, 'edits');
  if (!Array.isArray(value) || value.length === 0) throw new ShapeError('tool_input.edits must be a non-empty list');
  return value.map((edit, i) => {
    if (typeof edit !== 'object' || edit === null || Array.isArray(edit)) {
      throw new ShapeError(`tool_input.edits.${i} must be an object`);
    }
    const e = edit as Input;
    const one = (name: string) => {
      const v = field(e, name);
      if (typeof v !== 'string') throw new ShapeError(`tool_input.edits.${i}.${name} must be a string`);
      return v;
    };
    const replaceAll = field(e, 'replace_all');
    if (replaceAll !== undefined && typeof replaceAll !== 'boolean') {
      throw new ShapeError(`tool_input.edits.${i}.replace_all must be true or false`);
    }
    return withOptional({ old: one('old_string'), new: one('new_string'), replace_all: replaceAll }) as {
      old: string;
      new: string;
    };
  });
}

// Edit-like calls keep their text under edit_file's own names (`old`, `new`), so its diff preview applies.
const MAPPERS = new Map<string, { risk: Risk; map: Mapper }>([
  ['Bash', { risk: 'write', map: (i) => ({ tool: 'bash', params: { command: bashCommand(i) } }) }],
  [
    'Read',
    { risk: 'read_only', map: (i, cwd) => ({ tool: 'read_file', params: { path: filePath(i, 'file_path', cwd) } }) },
  ],
  [
    'Write',
    {
      risk: 'write',
      map: (i, cwd) => ({
        tool: 'write_file',
        params: { path: filePath(i, 'file_path', cwd), content: text(i, 'content') },
      }),
    },
  ],
  [
    'Edit',
    {
      risk: 'write',
      map: (i, cwd) => ({
        tool: 'edit_file',
        params: withOptional({
          path: filePath(i, 'file_path', cwd),
          old: text(i, 'old_string'),
          new: text(i, 'new_string'),
          replace_all: flag(i, 'replace_all'),
        }),
      }),
    },
  ],
  [
    'MultiEdit',
    {
      risk: 'write',
      map: (i, cwd) => ({ tool: 'edit_file', params: { path: filePath(i, 'file_path', cwd), edits: edits(i) } }),
    },
  ],
  [
    'NotebookEdit',
    {
      risk: 'write',
      map: (i, cwd) => ({
        tool: 'edit_file',
        params: withOptional({
          path: filePath(i, 'notebook_path', cwd),
          new: text(i, 'new_source', { optional: true }),
          cell_id: text(i, 'cell_id', { optional: true }),
          edit_mode: text(i, 'edit_mode', { optional: true }),
        }),
      }),
    },
  ],
  [
    'Grep',
    {
      risk: 'read_only',
      map: (i, cwd) => ({
        tool: 'read_file',
        params: withOptional({ path: searchRoot(i, 'path', cwd), pattern: text(i, 'pattern', { optional: true }) }),
        below: 'path',
      }),
    },
  ],
  [
    'Glob',
    {
      risk: 'read_only',
      map: (i, cwd) => ({
        tool: 'list_files',
        params: withOptional({ path: searchRoot(i, 'path', cwd), pattern: text(i, 'pattern', { optional: true }) }),
        below: 'path',
      }),
    },
  ],
  [
    'LS',
    { risk: 'read_only', map: (i, cwd) => ({ tool: 'list_files', params: { path: searchRoot(i, 'path', cwd) } }) },
  ],
  [
    'WebFetch',
    { risk: 'read_only', map: (i) => ({ tool: 'fetch_url', params: { url: text(i, 'url', { nonEmpty: true }) } }) },
  ],
  ['WebSearch', { risk: 'read_only', map: (i) => ({ tool: 'WebSearch', params: { text: text(i, 'query') } }) }],
]);

function bashCommand(input: Input): string {
  const command = text(input, 'command', { nonEmpty: true })!;
  if (command.includes('\u0000')) throw new ShapeError('tool_input.command must not contain a NUL byte');
  // Claude Code would run it outside its sandbox, and an allow from the hook skips the prompt it
  // shows for that: nothing a rule on the command sees, so it is refused (run it without the flag).
  if (field(input, 'dangerouslyDisableSandbox') === true)
    throw new ShapeError(
      'tool_input.dangerouslyDisableSandbox is true: Gatehouse does not allow commands outside Claude Code’s sandbox; run the command without it',
    );
  return command;
}

/**
 * Maps one Claude Code tool call. Unknown tools (and `mcp__*` tools) keep their own name with
 * their input as params and risk `write`: the caller makes a tool no rule names ask.
 */
export function mapClaudeCodeCall({ tool_name, tool_input, cwd }: ClaudeCodeCallInput): ClaudeCodeMapping {
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
  const known = MAPPERS.get(tool_name);
  if (!known) return { ok: true, call: { tool: tool_name, params: { ...input } }, risk: 'write', original };
  try {
    return { ok: true, call: known.map(input, dir), risk: known.risk, original };
  } catch (error) {
    if (error instanceof ShapeError) return { ok: false, reason: `${tool_name}: ${error.message}` };
    throw error;
  }
}
