// The browser's event stream reader: SSE blocks split anywhere across chunks, and a dropped
// stream re-opened with Last-Event-ID = the last sequence seen, until `done`.
import { afterEach, expect, it, vi } from 'vitest';
import { formatSse } from '../../contract';
import { followRun, readEvents } from './stream';
import type { LoggedEvent } from '@/lib/contract';

const block = (seq: number, type: string, data: Record<string, unknown>) =>
  formatSse({ id: seq, event: type, data: { ...data, type, seq } });

function sseResponse(chunks: string[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream({
      start(c) {
        for (const chunk of chunks) c.enqueue(encoder.encode(chunk));
        c.close();
      },
    }),
    { headers: { 'Content-Type': 'text/event-stream' } },
  );
}

afterEach(() => vi.unstubAllGlobals());

it('reads events split at any byte, skipping heartbeats, and stops at done', async () => {
  const text = `: connected\n\n${block(1, 'text', { content: 'hi' })}: heartbeat\n\n${block(2, 'done', { finishReason: 'stop', text: 'hi' })}${block(3, 'text', { content: 'after' })}`;
  const chunks = text.match(/[\s\S]{1,7}/g)!;
  const seen: string[] = [];
  expect(await readEvents(sseResponse(chunks), (e) => seen.push(`${e.id}:${e.event}`))).toBe(true);
  expect(seen).toEqual(['1:text', '2:done']);
});

it('after a drop it reconnects with Last-Event-ID and delivers each event once', async () => {
  const asked: string[] = [];
  const answers = [
    sseResponse([block(1, 'text', { content: 'a' }), block(2, 'text', { content: 'b' })]),
    sseResponse([
      block(3, 'relay_resolved', { relayId: 'r', toolCallId: 'c', status: 'approved', decidedBy: 'user' }),
      block(4, 'done', { finishReason: 'stop', text: 'ab' }),
    ]),
  ];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    asked.push(String((init.headers as Record<string, string>)['Last-Event-ID']));
    return answers.shift()!;
  });
  const events: LoggedEvent[] = [];
  await followRun(
    'run-1',
    0,
    { onEvent: (e) => events.push(e), stillLive: async () => true },
    new AbortController().signal,
  );
  expect(asked).toEqual(['0', '2']);
  expect(events.map((e) => `${e.runId}:${e.seq}:${e.type}`)).toEqual([
    'run-1:1:text',
    'run-1:2:text',
    'run-1:3:relay_resolved',
    'run-1:4:done',
  ]);
});

it('stops following a run that finished without a done event', async () => {
  let calls = 0;
  vi.stubGlobal('fetch', async () => (calls++, sseResponse([block(1, 'error', { message: 'storage failed' })])));
  const events: LoggedEvent[] = [];
  await followRun(
    'run-2',
    0,
    { onEvent: (e) => events.push(e), stillLive: async () => false },
    new AbortController().signal,
  );
  expect(calls).toBe(1);
  expect(events.map((e) => e.type)).toEqual(['error']);
});

it.each([401, 403, 404])(
  'stops following, with the error, when the server answers %i (signed out, no longer allowed, gone)',
  async (status) => {
    let calls = 0;
    vi.stubGlobal('fetch', async () => (calls++, Response.json({ error: { code: 'x', message: 'no' } }, { status })));
    await expect(
      followRun('run-3', 0, { onEvent: () => undefined, stillLive: async () => true }, new AbortController().signal),
    ).rejects.toMatchObject({ status });
    expect(calls).toBe(1);
  },
);
