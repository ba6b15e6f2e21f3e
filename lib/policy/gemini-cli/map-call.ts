// Gemini CLI's tool calls (a BeforeTool hook's `tool_name`, `tool_input`, `cwd`) as Gatehouse tool
// calls, so one policy judges every agent. Pure and total: a `tool_input` of the wrong shape is
// answered `{ ok: false, reason }` naming the field (the hook endpoint denies with it), never a
// throw and never a guess. Paths are resolved against `cwd` and normalised, never confined: a `../`
// escape is exactly what the policy must see. Tool and parameter names are Gemini CLI 0.61.0's.
import {
  commandIn,
  field,
  flag,
  hookCwd,
  HookInputError as ShapeError,
  resolvedPath,
  text as hookText,
  withOptional,
  type HookToolInput,
  type TextOptions,
} from '../hook-input';
import type { Risk } from '../types';

export { MAX_PATH_LENGTH } from '../hook-input';

export interface GeminiCliCallInput {
  tool_name: unknown;
  tool_input: unknown;
  cwd?: unknown;
}

export interface MappedGeminiCliCall {
  ok: true;
  /** `below`: the path param naming a directory searched with everything below it (grep_search, glob). */
  call: { tool: string; params: Record<string, unknown>; below?: string };
  risk: Risk;
  /** Gemini CLI's own tool name and input, for the human deciding. */
  original: { tool: string; input: unknown };
}

export type GeminiCliMapping = MappedGeminiCliCall | { ok: false; reason: string };

type Input = HookToolInput;
type Mapped = MappedGeminiCliCall['call'];
type Mapper = (input: Input, cwd: string | undefined) => Mapped;

/** Every string of Gemini CLI's input refuses a NUL character. */
const text = (input: Input, name: string, opts: TextOptions = {}) => hookText(input, name, { ...opts, noNul: true });

const filePath = (input: Input, name: string, cwd: string | undefined) => resolvedPath(text(input, name)!, name, cwd);

/** glob, grep_search and friends search a directory: the call's `cwd` when they name none. */
function searchRoot(input: Input, cwd: string | undefined): string {
  const value = text(input, 'dir_path', { optional: true });
  if (value !== undefined) return resolvedPath(value, 'dir_path', cwd);
  if (cwd === undefined) throw new ShapeError('tool_input.dir_path is missing and the hook sent no cwd');
  return cwd;
}

function strings(input: Input, name: string): string[] {
  const value = field(input, name);
  if (!Array.isArray(value) || value.length === 0) throw new ShapeError(`tool_input.${name} must be a non-empty list`);
  return value.map((item, i) => {
    if (typeof item !== 'string' || item.trim() === '') {
      throw new ShapeError(`tool_input.${name}.${i} must be a non-empty string`);
    }
    return item;
  });
}

/**
 * read_many_files keeps its own name, which asks unless a rule names it: each `include` entry is a
 * glob to it, matched without regard to case and with extglob (Gemini CLI's tool), so even a plain
 * `.ENV` or `@(.env)` reads `.env`. Judged as one read_file, a path rule (`deny **\/.env`) would
 * never see the file it reads.
 */
function readMany(input: Input, cwd: string | undefined): Mapped {
  const include = strings(input, 'include').map((p, i) => resolvedPath(p, `include.${i}`, cwd));
  const exclude = field(input, 'exclude') === undefined ? undefined : strings(input, 'exclude');
  return { tool: 'read_many_files', params: withOptional({ include, exclude }) };
}

/**
 * web_fetch takes a prompt and fetches every http(s) URL in it (split on whitespace, as Gemini CLI
 * 0.61.0's parsePrompt does). One URL is a fetch_url; several keep the tool's own name (and ask);
 * none is refused: there would be nothing for a rule to judge.
 */
function webFetch(input: Input): Mapped {
  const prompt = text(input, 'prompt', { nonEmpty: true })!;
  const urls = prompt.split(/\s+/).filter((token) => token.includes('://'));
  if (urls.length === 0) throw new ShapeError('tool_input.prompt names no URL to fetch');
  if (urls.length === 1) return { tool: 'fetch_url', params: { url: urls[0] } };
  return { tool: 'web_fetch', params: { urls } };
}

/**
 * The command as it runs: in `dir_path` (`directory` before 0.61.0's name) when it names one,
 * resolved against `cwd` as Gemini CLI resolves it; both at once would leave which one runs a guess.
 */
function shellCommand(input: Input, cwd: string | undefined): string {
  const command = text(input, 'command', { nonEmpty: true })!;
  const named = ['dir_path', 'directory'].filter((name) => field(input, name) !== undefined);
  if (named.length > 1) throw new ShapeError('tool_input has both dir_path and directory: only one may be given');
  const name = named[0];
  return name === undefined ? command : commandIn(command, filePath(input, name, cwd), cwd);
}

function grep(input: Input, cwd: string | undefined): Mapped {
  return {
    tool: 'read_file',
    params: withOptional({ path: searchRoot(input, cwd), pattern: text(input, 'pattern', { optional: true }) }),
    below: 'path',
  };
}

// Edits keep their text under edit_file's own names (`old`, `new`), so its diff preview applies.
const MAPPERS = new Map<string, { risk: Risk; map: Mapper }>([
  [
    'run_shell_command',
    { risk: 'write', map: (i, cwd) => ({ tool: 'bash', params: { command: shellCommand(i, cwd) } }) },
  ],
  [
    'read_file',
    { risk: 'read_only', map: (i, cwd) => ({ tool: 'read_file', params: { path: filePath(i, 'file_path', cwd) } }) },
  ],
  [
    'write_file',
    {
      risk: 'write',
      map: (i, cwd) => ({
        tool: 'write_file',
        params: { path: filePath(i, 'file_path', cwd), content: text(i, 'content') },
      }),
    },
  ],
  [
    'replace',
    {
      risk: 'write',
      map: (i, cwd) => ({
        tool: 'edit_file',
        params: withOptional({
          path: filePath(i, 'file_path', cwd),
          old: text(i, 'old_string'),
          new: text(i, 'new_string'),
          replace_all: flag(i, 'allow_multiple'),
        }),
      }),
    },
  ],
  ['read_many_files', { risk: 'read_only', map: readMany }],
  [
    'list_directory',
    { risk: 'read_only', map: (i, cwd) => ({ tool: 'list_files', params: { path: filePath(i, 'dir_path', cwd) } }) },
  ],
  [
    'glob',
    {
      risk: 'read_only',
      map: (i, cwd) => ({
        tool: 'list_files',
        params: withOptional({ path: searchRoot(i, cwd), pattern: text(i, 'pattern', { optional: true }) }),
        below: 'path',
      }),
    },
  ],
  // grep_search is 0.61.0's name; search_file_content is the name older releases used.
  ['grep_search', { risk: 'read_only', map: grep }],
  ['search_file_content', { risk: 'read_only', map: grep }],
  ['web_fetch', { risk: 'read_only', map: webFetch }],
]);

/**
 * Maps one Gemini CLI tool call. Unknown tools (MCP tools, `mcp_<server>_<tool>`, included) keep
 * their own name with their input as params and risk `write`: the caller makes a tool no rule
 * names ask.
 */
export function mapGeminiCliCall({ tool_name, tool_input, cwd }: GeminiCliCallInput): GeminiCliMapping {
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
