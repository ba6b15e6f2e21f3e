// The offline model at the V4 spec level: part order and shapes, abort, delay, determinism.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4FunctionTool,
  LanguageModelV4StreamPart,
} from '@ai-sdk/provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunkText, createOfflineModel } from './offline';

const fn = (name: string): LanguageModelV4FunctionTool => ({ type: 'function', name, inputSchema: { type: 'object' } });

function options(text: string, extra: Partial<LanguageModelV4CallOptions> = {}): LanguageModelV4CallOptions {
  return {
    prompt: [{ role: 'user', content: [{ type: 'text', text }] }],
    tools: [fn('bash'), fn('read_file')],
    ...extra,
  };
}

async function readAll(stream: ReadableStream<LanguageModelV4StreamPart>): Promise<LanguageModelV4StreamPart[]> {
  const parts: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
  return parts;
}

/** Replaces ids (the only non-deterministic bits) by their order of appearance. */
function normalizeIds(value: unknown): unknown {
  const seen = new Map<string, string>();
  return JSON.parse(JSON.stringify(value), (_, v: unknown) => {
    if (typeof v !== 'string' || !/^(call|txt|resp)_/.test(v)) return v;
    if (!seen.has(v)) seen.set(v, `id${seen.size}`);
    return seen.get(v);
  });
}

describe('offline model stream parts', () => {
  it('identifies itself as a V4 model of provider gatehouse', () => {
    const model = createOfflineModel();
    expect([model.specificationVersion, model.provider, model.modelId]).toEqual(['v4', 'gatehouse', 'offline']);
  });

  it('emits text, then tool input and tool-call parts with one id per call, then a V4 finish', async () => {
    const { stream } = await createOfflineModel().doStream(options('$ pwd\nfetch https://x.test'));
    const parts = await readAll(stream);
    const types = parts.map((part) => part.type);
    expect(types[0]).toBe('stream-start');
    expect(types.at(-1)).toBe('finish');
    expect(types.slice(types.indexOf('text-end') + 1)).toEqual([
      'tool-input-start',
      'tool-input-delta',
      'tool-input-end',
      'tool-call',
      'finish',
    ]);

    const textIds = new Set(parts.flatMap((part) => (part.type.startsWith('text-') && 'id' in part ? [part.id] : [])));
    expect(textIds.size).toBe(1);
    const call = parts.find((part) => part.type === 'tool-call');
    expect(call).toMatchObject({ toolName: 'bash', input: '{"command":"pwd"}' });
    const inputParts = parts.filter((part) => part.type.startsWith('tool-input'));
    expect(inputParts.every((part) => 'id' in part && call && part.id === call.toolCallId)).toBe(true);

    const finish = parts.at(-1);
    expect(finish).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool-calls' } });
    if (finish?.type !== 'finish') throw new Error('no finish');
    expect(finish.usage.inputTokens.total).toBeGreaterThan(0);
    expect(finish.usage.outputTokens.total).toBeGreaterThan(0);
  });

  it('finishes with stop when there are no calls', async () => {
    const { stream } = await createOfflineModel().doStream(options('hi'));
    expect((await readAll(stream)).at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
  });

  it('honours toolChoice none and a forced tool', async () => {
    const model = createOfflineModel();
    const none = await model.doGenerate(options('$ pwd\nread a', { toolChoice: { type: 'none' } }));
    expect(none.content.filter((part) => part.type === 'tool-call')).toEqual([]);
    const forced = await model.doGenerate(
      options('$ pwd\nread a', { toolChoice: { type: 'tool', toolName: 'read_file' } }),
    );
    expect(forced.content.flatMap((part) => (part.type === 'tool-call' ? [part.toolName] : []))).toEqual(['read_file']);
  });

  it('is deterministic apart from ids, and ids never repeat', async () => {
    const model = createOfflineModel();
    const a = await readAll((await model.doStream(options('$ pwd\nread a\nhello'))).stream);
    const b = await readAll((await createOfflineModel().doStream(options('$ pwd\nread a\nhello'))).stream);
    expect(normalizeIds(a)).toEqual(normalizeIds(b));
    const again = await model.doGenerate(options('$ pwd\nread a'));
    const ids = [...a, ...again.content].flatMap((part) => (part.type === 'tool-call' ? [part.toolCallId] : []));
    expect(new Set(ids).size).toBe(4);
  });

  it('rejects doStream and doGenerate with an AbortError when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = createOfflineModel();
    await expect(model.doStream(options('hi', { abortSignal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(model.doGenerate(options('hi', { abortSignal: controller.signal }))).rejects.toMatchObject({
      name: 'AbortError',
    });
  });

  it('errors the stream with an AbortError when aborted while streaming', async () => {
    const controller = new AbortController();
    const { stream } = await createOfflineModel().doStream(options('hello', { abortSignal: controller.signal }));
    const reader = stream.getReader();
    await reader.read();
    controller.abort('user cancelled');
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return;
      })(),
    ).rejects.toMatchObject({ name: 'AbortError', message: 'user cancelled' });
  });
});

describe('offline model streaming delay', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits chunkDelayMs before a part, and an abort cuts the wait short', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const model = createOfflineModel({ chunkDelayMs: 50 });
    const { stream } = await model.doStream(options('hello', { abortSignal: controller.signal }));
    const reader = stream.getReader();
    expect((await reader.read()).value?.type).toBe('stream-start');
    expect((await reader.read()).value?.type).toBe('response-metadata');

    const next = reader.read();
    await vi.advanceTimersByTimeAsync(50);
    expect((await next).value?.type).toBe('text-start');

    const pending = reader.read();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('chunkText', () => {
  it('splits into word deltas that join back to the text', () => {
    const text = 'one two\n  three ';
    expect(chunkText(text)).toEqual(['one', ' two', '\n  three', ' ']);
    expect(chunkText(text).join('')).toBe(text);
  });
});
