// The chat API over HTTP against the production build: a run streams its events, pauses on a
// relay, resumes on the decision; a second decision is a 409; a reconnect with Last-Event-ID
// misses nothing; bad requests are 4xx with field-level errors.
import { expect, test } from '@playwright/test';
import { ServerEventSchema, type RelayEvent, type ToolCallEvent } from '../lib/contract';
import { SseReader, type SseEvent } from './support/sse';

const json = { 'Content-Type': 'application/json' };

test('health reports the database of the project', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  // The config's projects run this spec against the embedded database and against PostgreSQL.
  const database = test.info().project.metadata.database ?? 'pglite';
  expect(await response.json()).toMatchObject({ ok: true, database, model: 'offline' });
});

test('health tells an anonymous caller only that the server is up', async ({ playwright, baseURL }) => {
  const anonymous = await playwright.request.newContext({ baseURL, extraHTTPHeaders: {} });
  try {
    const response = await anonymous.get('/api/health');
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    // A wrong token is as anonymous as none (and never a 401 here: health stays public).
    const forged = await anonymous.get('/api/health', { headers: { authorization: 'Bearer gh_not-a-token' } });
    expect(forged.status()).toBe(200);
    expect(await forged.json()).toEqual({ ok: true });
  } finally {
    await anonymous.dispose();
  }
});

test('a run pauses on a relay and finishes after it is approved; a second answer is a 409', async ({
  baseURL,
  request,
}) => {
  const { response, events } = await SseReader.open(`${baseURL}/api/chat`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ messages: [{ role: 'user', content: '$ echo over-http' }] }),
  });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
  const connected = await events.until('connected');
  const { sessionId, runId } = connected.data as { sessionId: string; runId: string };
  const seen: SseEvent[] = [];
  const relay = await events.until('relay', seen);
  const relayData = relay.data as RelayEvent;
  // The seed design's relay: the request's own fields on the event itself.
  expect(relayData).toMatchObject({
    type: 'relay',
    kind: 'permission',
    runId,
    sessionId,
    agentId: 'main',
    parents: [],
    tool: 'bash',
    params: { command: 'echo over-http' },
    prompt: `Run 'bash' with arguments {"command":"echo over-http"}?`,
  });
  expect(relayData).not.toHaveProperty('relay');
  expect(relayData.toolCallId).toBe((seen.find((e) => e.event === 'tool_call')?.data as ToolCallEvent).toolCallId);
  expect(relayData.suggestedRules).toHaveLength(1);

  const wrongSession = await request.post(`/api/chat/relay/${relayData.id}`, {
    data: { sessionId: 'not-mine', response: { approved: true } },
  });
  expect(wrongSession.status()).toBe(404);
  const approve = await request.post(`/api/chat/relay/${relayData.id}`, {
    data: { sessionId, response: { approved: true } },
  });
  expect(await approve.json()).toEqual({ success: true });
  const again = await request.post(`/api/chat/relay/${relayData.id}`, {
    data: { sessionId, response: { approved: false } },
  });
  expect(again.status()).toBe(409);
  expect((await again.json()).error.outcome).toMatchObject({ status: 'approved' });

  const rest = await events.rest();
  const all = [...seen, ...rest];
  expect(all.find((e) => e.event === 'tool_result')?.data).toMatchObject({ name: 'bash', output: 'over-http\n' });
  expect(all.find((e) => e.event === 'tool_call')?.data).toMatchObject({
    type: 'tool_call',
    name: 'bash',
    params: { command: 'echo over-http' },
  });
  expect(
    all
      .filter((e) => e.event === 'text')
      .map((e) => (e.data as { content: string }).content)
      .join(''),
  ).toContain('over-http');
  // Every event is the contract's, with its place in the log as the SSE id (and in `seq`).
  expect(connected.data).toEqual({ type: 'connected', sessionId, runId, agentId: 'main', parents: [] });
  for (const event of all) {
    expect(
      ServerEventSchema.safeParse(event.data).error,
      `${event.event} ${JSON.stringify(event.data)}`,
    ).toBeUndefined();
    expect(event.data).toMatchObject({ type: event.event, runId, seq: event.id });
  }
  expect(all.at(-1)?.event).toBe('done');
  const ids = all.map((e) => e.id);
  expect(ids).toEqual(ids.map((_, i) => i + 1));

  // Reconnect after the second event: exactly the rest comes back.
  const replay = await SseReader.open(`${baseURL}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '2' } });
  expect((await replay.events.rest()).map((e) => e.id)).toEqual(ids.slice(2));
});

test('bad requests get a 4xx with field-level errors, and the server keeps serving', async ({ request }) => {
  const noMessages = await request.post('/api/chat', { data: { messages: [] } });
  expect(noMessages.status()).toBe(400);
  expect((await noMessages.json()).error.fields[0]).toMatchObject({ path: 'messages' });
  const wrongType = await request.post('/api/chat', { data: { messages: [{ role: 'user', content: 5 }] } });
  expect(wrongType.status()).toBe(400);
  const notJson = await request.post('/api/chat', { headers: json, data: '{nope' });
  expect(notJson.status()).toBe(400);
  const badDecision = await request.post('/api/chat/relay/whatever', {
    data: { sessionId: 's', response: { approved: 'yes' } },
  });
  expect(badDecision.status()).toBe(400);
  expect((await badDecision.json()).error.fields[0]).toMatchObject({ path: 'response.approved' });
  const unknownRelay = await request.post('/api/chat/relay/whatever', {
    data: { sessionId: 's', response: { approved: true } },
  });
  expect(unknownRelay.status()).toBe(404);
  const unknownRun = await request.get('/api/runs/nope/events');
  expect(unknownRun.status()).toBe(404);
  expect((await request.get('/api/health')).status()).toBe(200);
});
