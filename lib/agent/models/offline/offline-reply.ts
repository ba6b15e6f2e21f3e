// The offline model's words: the grammar help, the "tool not available" line, and the answer
// that follows tool results (one entry per call, in call order). Pure string building. It recognises a
// denial by the loop's wording (loop/results.ts), as a model reading the result would.
import type { LanguageModelV4ToolResultOutput } from '@ai-sdk/provider';
import { DENIAL_PREFIX } from '../../loop/results';

/** Output longer than this is cut, so the answer stays a summary and not a copy. */
export const MAX_RESULT_LINES = 5;
export const MAX_RESULT_CHARS = 400;

export const HELP_TEXT = [
  'I am the offline model: I do not understand free text, only instructions, one per line.',
  'All instruction lines of one message run as tool calls of a single step:',
  '  $ <command>                  run a shell command (bash)',
  '  read <path>                  read a file (read_file)',
  '  ls [<path>]                  list a directory (list_files)',
  '  write <path>: <content>      write a file; \\n in the content is a newline (write_file)',
  '  edit <path>: <old> => <new>  replace text in a file (edit_file)',
  '  fetch <url>                  fetch a URL (fetch_url)',
  '  task <agent>: <prompt>       hand a task to a sub-agent (task)',
  '  call <tool> <json object>    call any tool with that input (MCP tools too)',
  'A few phrases stand for a command: "Clean up old log files", "Deploy to staging", "Run the test suite".',
  'Example: "$ ls -la" or "read README.md".',
].join('\n');

export function unavailableToolLine(toolName: string, line: string): string {
  return `Tool ${toolName} is not available here, so I skipped: ${line}`;
}

/** Cuts text to MAX_RESULT_LINES lines and MAX_RESULT_CHARS characters, marking the cut. */
export function truncateOutput(text: string): string {
  const trimmed = text.replace(/\s+$/, '');
  if (trimmed === '') return '(no output)';
  const lines = trimmed.split(/\r?\n/);
  const kept = lines.slice(0, MAX_RESULT_LINES).join('\n');
  const cut = kept.slice(0, MAX_RESULT_CHARS);
  return lines.length > MAX_RESULT_LINES || cut.length < kept.length ? `${cut}\n… (truncated)` : cut;
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

function isDenial(text: string): boolean {
  return text.trimStart().startsWith(DENIAL_PREFIX);
}

/** Plain text of a tool result plus whether it failed; denials come back whole. */
export function describeOutput(output: LanguageModelV4ToolResultOutput): {
  text: string;
  kind: 'ok' | 'error' | 'denied';
} {
  switch (output.type) {
    case 'text':
      return isDenial(output.value)
        ? { text: output.value.trim(), kind: 'denied' }
        : { text: output.value, kind: 'ok' };
    case 'error-text':
      return isDenial(output.value)
        ? { text: output.value.trim(), kind: 'denied' }
        : { text: output.value, kind: 'error' };
    case 'json':
      return { text: stringify(output.value), kind: 'ok' };
    case 'error-json':
      return { text: stringify(output.value), kind: 'error' };
    case 'execution-denied':
      return { text: `${DENIAL_PREFIX} ${output.reason ?? 'no reason given'}`, kind: 'denied' };
    case 'content':
      return {
        text: output.value.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join('\n'),
        kind: 'ok',
      };
  }
}

/** One answer entry: `<tool>: <output>`; a denial is quoted verbatim, never truncated. */
export function answerLine(toolName: string, output: LanguageModelV4ToolResultOutput | undefined): string {
  if (!output) return `${toolName}: (no result)`;
  const { text, kind } = describeOutput(output);
  if (kind === 'denied') return `${toolName}: ${text}`;
  const body = truncateOutput(text);
  return kind === 'error' ? `${toolName} failed: ${body}` : `${toolName}: ${body}`;
}
