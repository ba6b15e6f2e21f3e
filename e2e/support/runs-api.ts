// Starting runs through the HTTP API for UI specs: POST /api/chat, read the `connected` event for
// the ids, optionally wait for the relay (the run then waits for approval), and decide it. Both the
// SSE reader and the `request` fixture carry the admin's token (e2e/support/auth.ts); and a Claude
// Code hook call as the CLI sends it.
import { expect, type APIRequestContext } from '@playwright/test';
import { adminAuthHeaders } from './auth';
import { SseReader, type SseEvent } from './sse';

/** Who the audit names as the human decider of this spec's API calls: the signed-in username (`user` without access control). */
export async function humanDecider(request: APIRequestContext): Promise<string> {
  const me = await request.get('/api/auth/me');
  return me.ok() ? ((await me.json()) as { username: string }).username : 'user';
}

export interface StartedRun {
  sessionId: string;
  runId: string;
  events: SseReader;
  /** Stops reading the stream (the run itself goes on). */
  close(): void;
}

export async function startRun(baseURL: string, content: string): Promise<StartedRun> {
  const abort = new AbortController();
  const { events } = await SseReader.open(`${baseURL}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content }] }),
    signal: abort.signal,
  });
  const connected = await events.until('connected');
  const { sessionId, runId } = connected.data as { sessionId: string; runId: string };
  return { sessionId, runId, events, close: () => abort.abort() };
}

/** Starts a run whose first call asks (e.g. `$ echo <marker>`) and returns once it waits for approval. */
export async function startWaitingRun(baseURL: string, content: string): Promise<StartedRun & { relayId: string }> {
  const run = await startRun(baseURL, content);
  const relay = await run.events.until('relay');
  return { ...run, relayId: (relay.data as { id: string }).id };
}

/** Answers the run's relay as a human would, then reads the stream to its end. */
export async function decide(
  request: APIRequestContext,
  run: StartedRun & { relayId: string },
  response: { approved: boolean; reason?: string },
): Promise<SseEvent[]> {
  const answer = await request.post(`/api/chat/relay/${run.relayId}`, { data: { sessionId: run.sessionId, response } });
  if (!answer.ok()) throw new Error(`deciding relay ${run.relayId} failed: ${answer.status()} ${await answer.text()}`);
  const rest = await run.events.rest();
  if (rest.at(-1)?.event !== 'done')
    throw new Error(`run ${run.runId} did not finish: ${rest.map((e) => e.event).join(', ')}`);
  return rest;
}

export async function cancelRun(request: APIRequestContext, runId: string): Promise<void> {
  const response = await request.post(`/api/runs/${runId}/cancel`);
  if (!response.ok()) throw new Error(`cancelling run ${runId} failed: ${response.status()}`);
}

export const uniqueMarker = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

/** Decides a run's first pending relay through the API (as another tab or person would), once it is pending. */
export async function decidePending(
  request: APIRequestContext,
  runId: string,
  response: { approved: boolean; reason?: string },
): Promise<void> {
  let relay: { id: string; sessionId: string } | undefined;
  await expect
    .poll(async () => {
      const detail = (await (await request.get(`/api/runs/${runId}`)).json()) as {
        pendingRelays: Array<{ id: string; sessionId: string }>;
      };
      relay = detail.pendingRelays[0];
      return relay !== undefined;
    })
    .toBe(true);
  const answer = await request.post(`/api/chat/relay/${relay!.id}`, {
    data: { sessionId: relay!.sessionId, response },
  });
  expect(answer.ok(), await answer.text()).toBe(true);
}

/** A Claude Code `PreToolUse` hook call as the CLI sends it (held while it asks; 60 s deadline). */
export function hookCall(baseURL: string, body: Record<string, unknown>) {
  return fetch(`${baseURL}/api/hooks/claude-code?deadline=60`, {
    method: 'POST',
    headers: { ...adminAuthHeaders(), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: await response.json() }));
}
