// The offline model driven through the real `ai` package the way the agent loop drives it:
// streamText, one step at a time, tools without execute (the loop runs them itself).
import { generateText, streamText, tool, type ModelMessage, type ToolModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOfflineModel } from './offline';
import { HELP_TEXT } from './offline-reply';

const tools = {
  bash: tool({ description: 'Run a shell command', inputSchema: z.object({ command: z.string() }) }),
  read_file: tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }) }),
  list_files: tool({ description: 'List a directory', inputSchema: z.object({ path: z.string().optional() }) }),
  write_file: tool({ description: 'Write a file', inputSchema: z.object({ path: z.string(), content: z.string() }) }),
  edit_file: tool({
    description: 'Edit a file',
    inputSchema: z.object({ path: z.string(), old: z.string(), new: z.string() }),
  }),
  fetch_url: tool({ description: 'Fetch a URL', inputSchema: z.object({ url: z.string() }) }),
  task: tool({ description: 'Delegate', inputSchema: z.object({ agent: z.string(), prompt: z.string() }) }),
};

/** One step, as the loop runs it; collects the parts it cares about. */
async function step(messages: ModelMessage[], toolSet: Partial<typeof tools> = tools, abortSignal?: AbortSignal) {
  const result = streamText({ model: createOfflineModel(), tools: toolSet, messages, abortSignal });
  const deltas: string[] = [];
  const types: string[] = [];
  for await (const part of result.stream) {
    types.push(part.type);
    if (part.type === 'text-delta') deltas.push(part.text);
  }
  return { result, deltas, types };
}

describe('offline model through streamText', () => {
  it('turns a multi-line message into parallel tool calls of one step', async () => {
    const message = [
      '$ ls -la',
      'read README.md',
      'ls',
      'write notes.txt: a\\nb',
      'edit a.ts: foo => bar',
      'fetch https://example.com',
      'task reviewer: check it',
    ].join('\n');
    const { result } = await step([{ role: 'user', content: message }]);

    const steps = await result.steps;
    expect(steps).toHaveLength(1);
    expect(await result.finishReason).toBe('tool-calls');
    expect(await result.text).toBe('');
    const calls = await result.toolCalls;
    expect(calls.map((call) => [call.toolName, call.input])).toEqual([
      ['bash', { command: 'ls -la' }],
      ['read_file', { path: 'README.md' }],
      ['list_files', {}],
      ['write_file', { path: 'notes.txt', content: 'a\nb' }],
      ['edit_file', { path: 'a.ts', old: 'foo', new: 'bar' }],
      ['fetch_url', { url: 'https://example.com' }],
      ['task', { agent: 'reviewer', prompt: 'check it' }],
    ]);
    expect(calls.every((call) => /^call_\d+_[0-9a-f]+$/.test(call.toolCallId))).toBe(true);
    expect(new Set(calls.map((call) => call.toolCallId)).size).toBe(calls.length);
    // Nothing was executed: the tools have no execute, so the loop decides what runs.
    expect(await result.toolResults).toEqual([]);
  });

  it('answers a plain message with the grammar help, streamed in many deltas', async () => {
    const { result, deltas, types } = await step([{ role: 'user', content: 'hello, what can you do?' }]);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(HELP_TEXT);
    expect(types).toContain('text-start');
    expect(types).toContain('text-end');
    expect(await result.finishReason).toBe('stop');
    expect(await result.toolCalls).toEqual([]);
  });

  it('reads only the last user message', async () => {
    const { result } = await step([
      { role: 'user', content: '$ rm -rf /' },
      { role: 'assistant', content: 'bash: Tool execution denied: nope' },
      { role: 'user', content: 'read a.txt' },
    ]);
    expect((await result.toolCalls).map((call) => call.toolName)).toEqual(['read_file']);
  });

  it('says when an instruction names a tool that is not offered, and calls the rest', async () => {
    const { result } = await step([{ role: 'user', content: '$ pwd\nfetch https://example.com' }], {
      bash: tools.bash,
    });
    expect(await result.text).toBe('Tool fetch_url is not available here, so I skipped: fetch https://example.com');
    expect((await result.toolCalls).map((call) => call.toolName)).toEqual(['bash']);
    expect(await result.finishReason).toBe('tool-calls');
  });

  it('stops with text only when no instruction names an offered tool', async () => {
    const { result } = await step([{ role: 'user', content: '$ pwd' }], {});
    expect(await result.text).toContain('Tool bash is not available');
    expect(await result.finishReason).toBe('stop');
  });

  it('answers tool results (one line per call, in call order, denials verbatim) and stops', async () => {
    const history: ModelMessage[] = [{ role: 'user', content: '$ echo hi\nread secret.txt\nls\nread missing.txt' }];
    const first = await step(history);
    const calls = await first.result.toolCalls;
    const [echo, secret, ls, missing] = calls;
    if (!echo || !secret || !ls || !missing) throw new Error('expected four calls');

    // Results arrive out of call order, as parallel execution finishes; the answer keeps call order.
    const toolMessage: ToolModelMessage = {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: ls.toolCallId,
          toolName: 'list_files',
          output: { type: 'json', value: ['a.txt', 'b.txt'] },
        },
        {
          type: 'tool-result',
          toolCallId: missing.toolCallId,
          toolName: 'read_file',
          output: { type: 'error-text', value: 'not_found: missing.txt' },
        },
        {
          type: 'tool-result',
          toolCallId: secret.toolCallId,
          toolName: 'read_file',
          output: { type: 'text', value: 'Tool execution denied: rule "secrets" denies read_file secret.txt' },
        },
        { type: 'tool-result', toolCallId: echo.toolCallId, toolName: 'bash', output: { type: 'text', value: 'hi\n' } },
      ],
    };
    const next = [...history, ...(await first.result.responseMessages), toolMessage];
    const second = await step(next);

    expect(await second.result.text).toBe(
      [
        'bash: hi',
        'read_file: Tool execution denied: rule "secrets" denies read_file secret.txt',
        'list_files: ["a.txt","b.txt"]',
        'read_file failed: not_found: missing.txt',
      ].join('\n'),
    );
    expect(second.deltas.length).toBeGreaterThan(1);
    expect(await second.result.finishReason).toBe('stop');
    expect(await second.result.toolCalls).toEqual([]);
  });

  it('works through generateText (doGenerate) as well', async () => {
    const result = await generateText({
      model: createOfflineModel(),
      tools,
      messages: [{ role: 'user', content: '$ pwd\nls src' }],
    });
    expect(result.toolCalls.map((call) => [call.toolName, call.input])).toEqual([
      ['bash', { command: 'pwd' }],
      ['list_files', { path: 'src' }],
    ]);
    expect(result.finishReason).toBe('tool-calls');
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('ends the step with an abort when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { types, deltas } = await step([{ role: 'user', content: 'hello' }], tools, controller.signal);
    expect(types).toContain('abort');
    expect(deltas).toEqual([]);
  });

  it('stops streaming when aborted mid-stream', async () => {
    const controller = new AbortController();
    const result = streamText({
      model: createOfflineModel(),
      tools,
      messages: [{ role: 'user', content: 'hello' }],
      abortSignal: controller.signal,
    });
    const deltas: string[] = [];
    const types: string[] = [];
    for await (const part of result.stream) {
      types.push(part.type);
      if (part.type === 'text-delta') {
        deltas.push(part.text);
        controller.abort();
      }
    }
    expect(types.at(-1)).toBe('abort');
    expect(deltas.join('').length).toBeLessThan(HELP_TEXT.length);
  });
});
