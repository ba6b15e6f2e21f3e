// Decides what the offline model says for one call: reads the prompt the way a provider would
// and returns the text and tool calls of one step. Pure; ids and streaming are offline.ts's job.
//
// - The prompt ends with tool results: answer them, one entry per call of the preceding
//   assistant message in call order (results without a known call follow), then stop.
// - Otherwise: the last user message's instruction lines become parallel calls of tools that are
//   offered (options.tools, narrowed by toolChoice); an instruction for any other tool becomes a
//   text line. A message without instructions gets the grammar help.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
  LanguageModelV4ToolResultPart,
} from '@ai-sdk/provider';
import { parseInstructions } from './offline-grammar';
import { answerLine, HELP_TEXT, unavailableToolLine } from './offline-reply';

export interface PlannedCall {
  toolName: string;
  input: Record<string, unknown>;
}

export interface OfflinePlan {
  /** Text of the step; empty when it only calls tools. */
  text: string;
  calls: PlannedCall[];
}

export type PlanOptions = Pick<LanguageModelV4CallOptions, 'prompt' | 'tools' | 'toolChoice'>;

/** Names of the function tools the model may call in this step. */
export function offeredTools({ tools, toolChoice }: Pick<PlanOptions, 'tools' | 'toolChoice'>): Set<string> {
  if (toolChoice?.type === 'none') return new Set();
  const names = (tools ?? []).filter((tool) => tool.type === 'function').map((tool) => tool.name);
  if (toolChoice?.type === 'tool') return new Set(names.filter((name) => name === toolChoice.toolName));
  return new Set(names);
}

function userText(message: LanguageModelV4Message | undefined): string {
  if (message?.role !== 'user') return '';
  return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
}

function answerToolResults(prompt: LanguageModelV4Message[]): OfflinePlan {
  let start = prompt.length;
  while (start > 0 && prompt[start - 1]?.role === 'tool') start -= 1;

  const results = new Map<string, LanguageModelV4ToolResultPart>();
  for (const message of prompt.slice(start)) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) if (part.type === 'tool-result') results.set(part.toolCallId, part);
  }

  const assistant = prompt[start - 1];
  const calls = assistant?.role === 'assistant' ? assistant.content.filter((part) => part.type === 'tool-call') : [];
  const lines = calls.map((call) => {
    const result = results.get(call.toolCallId);
    results.delete(call.toolCallId);
    return answerLine(call.toolName, result?.output);
  });
  for (const orphan of results.values()) lines.push(answerLine(orphan.toolName, orphan.output));

  return { text: lines.length > 0 ? lines.join('\n') : 'There were no tool results to report.', calls: [] };
}

export function planResponse(options: PlanOptions): OfflinePlan {
  const { prompt } = options;
  if (prompt.at(-1)?.role === 'tool') return answerToolResults(prompt);

  const lastUser = prompt.findLast((message) => message.role === 'user');
  const instructions = parseInstructions(userText(lastUser));
  if (instructions.length === 0) return { text: HELP_TEXT, calls: [] };

  const offered = offeredTools(options);
  const calls: PlannedCall[] = [];
  const skipped: string[] = [];
  for (const { toolName, input, line } of instructions) {
    if (offered.has(toolName)) calls.push({ toolName, input });
    else skipped.push(unavailableToolLine(toolName, line));
  }
  return { text: skipped.join('\n'), calls };
}
