// The offline model's instruction grammar: one instruction per line, each one a tool call. Pure
// and total: every line either parses to exactly one call or is ignored (prose), never throws.
//
//   $ <command>                    -> bash        { command }
//   read <path>                    -> read_file   { path }
//   ls [<path>]                    -> list_files  { path? }
//   write <path>: <content>        -> write_file  { path, content }
//   edit <path>: <old> => <new>    -> edit_file   { path, old, new }
//   fetch <url>                    -> fetch_url   { url }
//   task <agent>: <prompt>         -> task        { agent, prompt }
//   call <tool> <json object>      -> <tool>      <the object> (any tool, MCP tools included)
//   one of OFFLINE_PHRASES         -> bash        { command } (offline-phrases.ts)
//
// Word keywords are lower-case and must be followed by whitespace (so `reader x` is prose). In write
// and edit texts `\n` stands for a newline and `\\` for a backslash. Edit splits at the first
// ` => `; a trailing `=>` means "replace with nothing".
import { phraseCommand } from './offline-phrases';

export type OfflineToolName = 'bash' | 'read_file' | 'list_files' | 'write_file' | 'edit_file' | 'fetch_url' | 'task';

export interface OfflineCall {
  /** One of OfflineToolName, or any tool named by a `call` line. */
  toolName: string;
  input: Record<string, unknown>;
  /** The instruction line as typed (trimmed), for messages about it. */
  line: string;
}

type LineParser = (rest: string) => Omit<OfflineCall, 'line'> | undefined;

/** Replaces `\n` by a newline and `\\` by a backslash; any other backslash stays as typed. */
export function unescapeText(text: string): string {
  return text.replace(/\\([n\\])/g, (_, ch: string) => (ch === 'n' ? '\n' : '\\'));
}

/** Splits `<head>: <tail>` at the first colon; the head must be non-empty. */
function splitColon(rest: string): [string, string] | undefined {
  const at = rest.indexOf(':');
  if (at < 0) return undefined;
  const head = rest.slice(0, at).trim();
  if (head === '') return undefined;
  return [head, rest.slice(at + 1).trimStart()];
}

const single =
  (toolName: OfflineToolName, key: string): LineParser =>
  (rest) =>
    rest === '' ? undefined : { toolName, input: { [key]: rest } };

const PARSERS: Record<string, LineParser> = {
  $: single('bash', 'command'),
  read: single('read_file', 'path'),
  fetch: single('fetch_url', 'url'),
  ls: (rest) => {
    const input: Record<string, string> = rest === '' ? {} : { path: rest };
    return { toolName: 'list_files', input };
  },
  write: (rest) => {
    const parts = splitColon(rest);
    if (!parts) return undefined;
    return { toolName: 'write_file', input: { path: parts[0], content: unescapeText(parts[1]) } };
  },
  edit: (rest) => {
    const parts = splitColon(rest);
    if (!parts) return undefined;
    const [path, body] = parts;
    const arrow = body.indexOf(' => ');
    let old: string;
    let replacement: string;
    if (arrow >= 0) {
      old = body.slice(0, arrow);
      replacement = body.slice(arrow + 4);
    } else if (body.endsWith(' =>')) {
      old = body.slice(0, -3);
      replacement = '';
    } else {
      return undefined;
    }
    if (old.trim() === '') return undefined;
    return { toolName: 'edit_file', input: { path, old: unescapeText(old), new: unescapeText(replacement) } };
  },
  // The generic form: the tool name, then a JSON object (its input). Anything else is prose.
  call: (rest) => {
    const match = /^(\S+)\s+(\{[\s\S]*\})$/.exec(rest);
    if (!match) return undefined;
    let input: unknown;
    try {
      input = JSON.parse(match[2]!);
    } catch {
      return undefined;
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return undefined;
    return { toolName: match[1]!, input: input as Record<string, unknown> };
  },
  task: (rest) => {
    const parts = splitColon(rest);
    if (!parts || parts[1] === '') return undefined;
    return { toolName: 'task', input: { agent: parts[0], prompt: parts[1] } };
  },
};

/** Parses one line; undefined when it is not an instruction (prose, blank, incomplete). */
export function parseInstructionLine(raw: string): OfflineCall | undefined {
  const line = raw.trim();
  const phrased = phraseCommand(line);
  if (phrased !== undefined) return { toolName: 'bash', input: { command: phrased }, line };
  // `$` needs no space after it (`$ls` is as clear as `$ ls`); word keywords do.
  const match = /^(?:(\$)\s*|([a-z]+)(?:\s+|$))([\s\S]*)$/.exec(line);
  if (!match) return undefined;
  const keyword = match[1] ?? match[2] ?? '';
  const parser = Object.hasOwn(PARSERS, keyword) ? PARSERS[keyword] : undefined;
  const parsed = parser?.((match[3] ?? '').trim());
  return parsed ? { ...parsed, line } : undefined;
}

/** All instruction lines of a message, in order; prose lines are skipped. */
export function parseInstructions(text: string): OfflineCall[] {
  return text.split(/\r?\n/).flatMap((raw) => {
    const call = parseInstructionLine(raw);
    return call ? [call] : [];
  });
}
