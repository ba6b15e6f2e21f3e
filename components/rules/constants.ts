// Labels shared by the rule editor's forms: the built-in tools, the modes, the condition operators
// and how each param kind's pattern is read.
import { MODE_LABELS, MODES } from '@/lib/contract';
import type { ConditionOp, Mode, ParamKind } from '@/lib/policy/types';

export const KNOWN_TOOLS = ['bash', 'read_file', 'write_file', 'edit_file', 'list_files', 'fetch_url', 'task'] as const;

export const MODE_OPTIONS: { value: Mode; label: string }[] = MODES.map((value) => ({
  value,
  label: MODE_LABELS[value],
}));

export const ACTION_OPTIONS = [
  { value: 'allow', label: 'allow' },
  { value: 'ask', label: 'ask' },
  { value: 'deny', label: 'deny' },
];

export const OP_OPTIONS: { value: ConditionOp; label: string }[] = [
  { value: 'eq', label: 'equals' },
  { value: 'glob', label: 'matches glob' },
  { value: 'regex', label: 'matches regex' },
  { value: 'host', label: 'host is one of' },
  { value: 'command_blacklist', label: 'runs one of the programs' },
  { value: 'command_ask_always', label: 'always ask for the programs' },
  { value: 'no_command_substitution', label: 'has a command substitution' },
];

export const KIND_HINTS: Record<ParamKind, string> = {
  command: 'Shell command pattern, e.g. "git status" or "npm run *"; each part of a compound command is checked.',
  path: 'Path glob, e.g. "src/**"; relative paths are inside the workspace.',
  url: 'URL pattern, e.g. "https://docs.example.com/*".',
  text: 'Glob over the value (* matches anything).',
};

export const REASON_LABELS: Record<string, string> = {
  matched_rule: 'matched a rule',
  session_grant: 'an Always Allow grant',
  risk_default: "the tool's risk default",
  default_action: "the policy's default",
  mode: 'the mode',
  unparseable: 'the command could not be inspected',
};
