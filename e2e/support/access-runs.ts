// Runs started as a given principal for the access specs: POST /api/chat with that principal's
// credentials, read the `connected` ids, and (for `$ echo ...`) wait for the relay. Every run is
// remembered, so the spec can stop reading and cancel them all at the end.
import { expect } from '@playwright/test';
import { openStream, send, type Principal } from './access-principals';
import type { SseReader } from './sse';

export interface StartedRun {
  runId: string;
  sessionId: string;
  events: SseReader;
}

export interface WaitingRun extends StartedRun {
  relayId: string;
}

export class RunTracker {
  private readonly started: { runId: string; abort: AbortController }[] = [];

  /** Starts a run as `who`; the stream stays open for the caller to read. */
  async start(who: Principal, content: string, options: { sessionId?: string } = {}): Promise<StartedRun> {
    const abort = new AbortController();
    const { response, events } = await openStream(
      who,
      'POST',
      '/api/chat',
      { messages: [{ role: 'user', content }], ...options },
      abort.signal,
    );
    expect(response.status, `starting a run as ${who.name}`).toBe(200);
    const connected = await events.until('connected');
    const { runId, sessionId } = connected.data as { runId: string; sessionId: string };
    this.started.push({ runId, abort });
    return { runId, sessionId, events };
  }

  /** A run whose first call (`$ echo <marker>`) waits for a human. */
  async startWaiting(who: Principal, marker: string): Promise<WaitingRun> {
    const run = await this.start(who, `$ echo ${marker}`);
    const relay = await run.events.until('relay');
    return { ...run, relayId: (relay.data as { id: string }).id };
  }

  /** A run that needs no tool and is done when this returns (the offline model answers prose with its help). */
  async startFinished(who: Principal, options: { sessionId?: string } = {}): Promise<StartedRun> {
    const run = await this.start(who, 'hello from the access matrix', options);
    await run.events.until('done');
    return run;
  }

  /** Stops reading every stream and cancels every run (a no-op for finished ones). */
  async cleanup(admin: Principal): Promise<void> {
    for (const { runId, abort } of this.started.splice(0)) {
      abort.abort();
      const response = await send(admin, 'POST', `/api/runs/${runId}/cancel`);
      expect(response.status(), `cancelling ${runId}`).toBe(200);
    }
  }
}

export interface RunView {
  run: { id: string; status: string; mode: string; owner: string | null; sessionId: string };
  pendingRelays: { id: string }[];
}

export async function getRun(who: Principal, runId: string): Promise<RunView> {
  const response = await send(who, 'GET', `/api/runs/${runId}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as RunView;
}

export async function listRunIds(who: Principal, query = ''): Promise<string[]> {
  const response = await send(who, 'GET', `/api/runs${query}`);
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { items: { id: string }[] }).items.map((r) => r.id);
}
