// One model step through the AI SDK: stream the text, collect the tool calls, execute nothing.
// The loop runs tools itself, so a pause for approval can last as long as it needs to.
import { jsonSchema, streamText, tool, type ModelMessage, type ToolSet } from 'ai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { z } from 'zod';
import type { ToolDefinition } from '../tools/types';

export interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

export interface StepResult {
  text: string;
  toolCalls: ModelToolCall[];
  /** The assistant message(s) of this step, to append to the conversation. */
  responseMessages: ModelMessage[];
  finishReason: string;
}

const toolSets = new WeakMap<readonly ToolDefinition[], ToolSet>();
/** One model-facing tool per (input schema, description): converting a schema is not free, and a run's task tool is new per run but describes the same thing. */
const modelTools = new WeakMap<object, Map<string, ToolSet[string]>>();

function modelTool(def: ToolDefinition): ToolSet[string] {
  let byDescription = modelTools.get(def.inputSchema);
  if (!byDescription) modelTools.set(def.inputSchema, (byDescription = new Map()));
  let made = byDescription.get(def.description);
  if (!made) {
    const schema =
      def.modelInputSchema ?? z.toJSONSchema(def.inputSchema as z.ZodType, { io: 'input', unrepresentable: 'any' });
    made = tool({ description: def.description, inputSchema: jsonSchema(schema as Parameters<typeof jsonSchema>[0]) });
    byDescription.set(def.description, made);
  }
  return made;
}

/**
 * The tools as the model sees them: name, description and JSON schema, no execute. The SDK does
 * not validate inputs (the loop does, with the tool's own zod schema, and reports errors itself).
 */
export function toModelTools(tools: readonly ToolDefinition[]): ToolSet {
  const cached = toolSets.get(tools);
  if (cached) return cached;
  const set: ToolSet = {};
  for (const def of tools) set[def.name] = modelTool(def);
  toolSets.set(tools, set);
  return set;
}

export async function runModelStep(options: {
  model: LanguageModelV4;
  system?: string;
  messages: ModelMessage[];
  tools: readonly ToolDefinition[];
  signal?: AbortSignal;
  onText(delta: string): void;
}): Promise<StepResult> {
  const result = streamText({
    model: options.model,
    system: options.system,
    messages: options.messages,
    tools: options.tools.length > 0 ? toModelTools(options.tools) : undefined,
    abortSignal: options.signal,
  });
  let text = '';
  const toolCalls: ModelToolCall[] = [];
  let failure: unknown;
  for await (const part of result.stream) {
    if (part.type === 'text-delta') {
      text += part.text;
      options.onText(part.text);
    } else if (part.type === 'tool-call') {
      toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
    } else if (part.type === 'error') {
      failure = part.error;
    } else if (part.type === 'abort') {
      failure = new DOMException('The run was stopped', 'AbortError');
    }
  }
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  const responseMessages = (await result.responseMessages) as ModelMessage[];
  return { text, toolCalls, responseMessages, finishReason: String(await result.finishReason) };
}
