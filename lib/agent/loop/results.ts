// Call results as the model gets them, and as the checkpoint keeps them: one `tool` message per
// step, in call order. Whether a call was denied is a fact stored on its part (provider options
// under `gatehouse`, which no provider reads), so a resumed run never infers it from the wording.
import type { ModelMessage, ToolResultPart } from 'ai';
import type { CallResult } from './context';
import type { ModelToolCall } from './step';

/** How a refused call's result starts: the model reads it (and the offline model recognises it). */
export const DENIAL_PREFIX = 'Tool execution denied:';

/** The result of a call the policy or a human refused. */
export function denial(reason: string): CallResult {
  return {
    output: `${DENIAL_PREFIX} ${reason.replace(/\.?\s*$/, '.')} Do not retry the same call.`,
    isError: true,
    denied: true,
  };
}

const DENIED = { gatehouse: { denied: true } };

export function toolMessage(calls: ModelToolCall[], results: CallResult[]): ModelMessage {
  return {
    role: 'tool',
    content: calls.map((call, i): ToolResultPart => {
      const result = results[i]!;
      return {
        type: 'tool-result',
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        output: result.isError ? { type: 'error-text', value: result.output } : { type: 'text', value: result.output },
        ...(result.denied ? { providerOptions: DENIED } : {}),
      };
    }),
  };
}

/** The results a checkpointed `tool` message gave the model, by call id, with the denial fact. */
export function checkpointedResults(message: ModelMessage | undefined): Map<string, CallResult> {
  const results = new Map<string, CallResult>();
  if (message?.role !== 'tool') return results;
  for (const part of message.content) {
    if (part.type !== 'tool-result') continue;
    const output = part.output as { type: string; value?: unknown };
    const value = typeof output.value === 'string' ? output.value : JSON.stringify(output.value ?? null);
    const denied = part.providerOptions?.gatehouse?.denied === true;
    results.set(part.toolCallId, {
      output: value,
      isError: output.type === 'error-text' || output.type === 'error-json',
      ...(denied ? { denied } : {}),
    });
  }
  return results;
}
