// The dialog's headline, the sentence people read first: "bash wants to run `ls -la`",
// "write_file wants to change `notes.md`", "fetch_url wants to fetch `https://…`", and a risk
// label that says what kind of thing the call does. A long value keeps its start and its end.
// Pure, so the wording is pinned by a test.
import type { RelayRequest } from '@/lib/contract';
import { clipText } from './reveal';

export interface Headline {
  tool: string;
  /** "wants to run", "wants to change"... */
  verb: string;
  /** The value the verb is about (the command, the path, the URL), if the call has one. */
  object?: string;
}

const VERBS: Record<string, [param: string, verb: string]> = {
  bash: ['command', 'wants to run'],
  write_file: ['path', 'wants to change'],
  edit_file: ['path', 'wants to change'],
  read_file: ['path', 'wants to read'],
  list_files: ['path', 'wants to list'],
  fetch_url: ['url', 'wants to fetch'],
  task: ['agent', 'wants to hand a task to'],
};

/** Long values are clipped here; the parameters below show them whole. */
const OBJECT_LIMIT = 160;
/**
 * How much of a clipped value's end stays: a command appended after padding (`npm test<spaces>;
 * curl ... | sh`) or the file name at the end of a long path is what the headline must not hide.
 */
const TAIL = 40;

/** The start and the end of a long value around `…`, neither end cutting a surrogate pair. */
function clipMiddle(value: string): string {
  if (value.length <= OBJECT_LIMIT) return value;
  const head = clipText(value, OBJECT_LIMIT - TAIL);
  let from = value.length - TAIL;
  const first = value.charCodeAt(from);
  if (first >= 0xdc00 && first <= 0xdfff) from += 1;
  return `${head}…${value.slice(from)}`;
}

export function headlineOf(relay: Pick<RelayRequest, 'tool' | 'params'>): Headline {
  const [param, verb] = VERBS[relay.tool] ?? [undefined, 'wants to be used'];
  const value = param ? relay.params[param] : undefined;
  if (typeof value !== 'string' || value === '') return { tool: relay.tool, verb: param ? verb : 'wants to be used' };
  // One line: a line break (a second command: `ls` then `rm -rf ~`) is a visible mark, never a space.
  return { tool: relay.tool, verb, object: clipMiddle(value.replace(/\r\n|\r|\n/g, ' ⏎ ')) };
}

const TOOL_RISK: Record<string, string> = {
  bash: 'Runs a shell command: it can do anything your account can',
  write_file: 'Changes a file',
  edit_file: 'Changes a file',
  read_file: 'Reads a file',
  list_files: 'Lists a folder',
  fetch_url: 'Fetches from the network (read-only)',
  task: 'Starts a subagent (its own calls are gated too)',
};

const RISK_LABEL: Record<string, string> = {
  read_only: 'Read-only',
  write: 'Can change things',
  destructive: 'Can delete or overwrite',
};

/** What the call can do, in words: the tool's own label, else its declared risk. */
export function riskLabel(relay: Pick<RelayRequest, 'tool' | 'risk'>): string {
  return TOOL_RISK[relay.tool] ?? (relay.risk ? RISK_LABEL[relay.risk]! : 'Unknown risk');
}
