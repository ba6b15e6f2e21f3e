// The offline model: a LanguageModelV4 that needs no network or key and follows a tiny grammar
// (offline-grammar.ts), so the agent loop, the policy gate and the UI run end to end anywhere.
// To the AI SDK it looks like any provider: streamed text parts, tool-input/tool-call parts,
// a V4 finish reason and usage. Deterministic apart from ids; honours the abort signal.
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import { planResponse, type OfflinePlan } from './offline-plan';
import { describeOutput } from './offline-reply';

export interface OfflineModelOptions {
  /**
   * Pause before each streamed text or tool part, in milliseconds, so a UI can show streaming.
   * Default 0: no timers at all.
   */
  chunkDelayMs?: number;
}

export const OFFLINE_PROVIDER = 'gatehouse';
export const OFFLINE_MODEL_ID = 'offline';

/** Splits text into word-sized deltas (whitespace kept with the following word). */
export function chunkText(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

function randomSuffix(): string {
  return globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 12);
}

/** What a fetch would throw: ai treats AbortError/TimeoutError as an abort, not a failure. */
function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && (reason.name === 'AbortError' || reason.name === 'TimeoutError')) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'The operation was aborted.', 'AbortError');
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Characters of what the prompt says (ids left out, so usage is as deterministic as the text). */
function promptChars(prompt: LanguageModelV4Prompt): number {
  let chars = 0;
  for (const message of prompt) {
    if (message.role === 'system') {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === 'text') chars += part.text.length;
      else if (part.type === 'tool-call') chars += (JSON.stringify(part.input) ?? '').length;
      else if (part.type === 'tool-result') chars += describeOutput(part.output).text.length;
    }
  }
  return chars;
}

/** Rough token counts (about four characters a token): enough for usage displays. */
function usageOf(options: LanguageModelV4CallOptions, plan: OfflinePlan, callsJson: string): LanguageModelV4Usage {
  const input = Math.ceil(promptChars(options.prompt) / 4);
  const text = Math.ceil(plan.text.length / 4);
  const output = text + Math.ceil(callsJson.length / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text, reasoning: 0 },
  };
}

function finishReasonOf(plan: OfflinePlan): LanguageModelV4FinishReason {
  return plan.calls.length > 0 ? { unified: 'tool-calls', raw: 'tool-calls' } : { unified: 'stop', raw: 'stop' };
}

export function createOfflineModel(settings: OfflineModelOptions = {}): LanguageModelV4 {
  const delayMs = Math.max(0, settings.chunkDelayMs ?? 0);
  let callCounter = 0;

  /** The step as content parts, with fresh ids (unique per model instance and across them). */
  function respond(options: LanguageModelV4CallOptions) {
    const plan = planResponse(options);
    const toolCalls = plan.calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: `call_${++callCounter}_${randomSuffix()}`,
      toolName: call.toolName,
      input: JSON.stringify(call.input),
    }));
    const callsJson = toolCalls.map((call) => call.input).join('');
    return { plan, toolCalls, finishReason: finishReasonOf(plan), usage: usageOf(options, plan, callsJson) };
  }

  return {
    specificationVersion: 'v4',
    provider: OFFLINE_PROVIDER,
    modelId: OFFLINE_MODEL_ID,
    // Claim every URL as supported so the SDK never downloads prompt files for us: we ignore them.
    supportedUrls: { '*/*': [/.*/] },

    async doGenerate(options) {
      throwIfAborted(options.abortSignal);
      const { plan, toolCalls, finishReason, usage } = respond(options);
      const content: LanguageModelV4Content[] = [];
      if (plan.text !== '') content.push({ type: 'text', text: plan.text });
      content.push(...toolCalls);
      return {
        content,
        finishReason,
        usage,
        warnings: [],
        response: { id: `resp_${randomSuffix()}`, modelId: OFFLINE_MODEL_ID },
      };
    },

    async doStream(options) {
      const signal = options.abortSignal;
      throwIfAborted(signal);
      const { plan, toolCalls, finishReason, usage } = respond(options);

      const parts: LanguageModelV4StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        { type: 'response-metadata', id: `resp_${randomSuffix()}`, modelId: OFFLINE_MODEL_ID },
      ];
      if (plan.text !== '') {
        const id = `txt_${randomSuffix()}`;
        parts.push({ type: 'text-start', id });
        for (const delta of chunkText(plan.text)) parts.push({ type: 'text-delta', id, delta });
        parts.push({ type: 'text-end', id });
      }
      for (const call of toolCalls) {
        const id = call.toolCallId;
        parts.push({ type: 'tool-input-start', id, toolName: call.toolName });
        parts.push({ type: 'tool-input-delta', id, delta: call.input });
        parts.push({ type: 'tool-input-end', id });
        parts.push(call);
      }
      parts.push({ type: 'finish', finishReason, usage });

      let next = 0;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          const part = parts[next++];
          if (!part) return controller.close();
          try {
            throwIfAborted(signal);
            if (delayMs > 0 && part.type !== 'stream-start' && part.type !== 'response-metadata') {
              await sleep(delayMs, signal);
            }
            controller.enqueue(part);
          } catch (error) {
            controller.error(error);
          }
        },
      });
      return { stream };
    },
  };
}
