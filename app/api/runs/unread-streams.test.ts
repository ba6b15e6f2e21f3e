// GET /api/runs/:id/events and clients that read slowly or not at all: a stream waits for its
// reader before it replays more of the log, so unread streams cannot each hold a big run's log,
// and a slow reader still gets every event once, in order.
import { describe, expect, it, vi } from 'vitest';
import { createApiToken, createUser } from '@/lib/auth';
import { REPLAY_PAGE } from '@/lib/server/runs/run-log';
import { apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';

const server = withRouteRuntime('gatehouse-unread-streams-');

let n = 0;

/** A waiting run of `user`'s with 8 MB of text in its log (`events` events), as a long session writes it. */
async function bigRun(events = 128) {
  const { q, runs } = server.rt();
  const owner = (await createUser({ q, username: `reader-${++n}`, role: 'user' })).id;
  const { token } = await createApiToken({ q, userId: owner, name: 't' });
  const runId = `big-run-${n}`;
  await q.runs.createRun({ id: runId, sessionId: `s-${runId}`, status: 'waiting', owner });
  const content = 'x'.repeat((8 * 1024 * 1024) / events);
  for (let i = 0; i < events; i += 16)
    await runs.log.append(
      runId,
      Array.from({ length: 16 }, () => ({ type: 'text' as const, runId, agentId: 'main', parents: [], content })),
    );
  return { token, runId, events };
}

describe('GET /api/runs/:id/events: a client that never reads', () => {
  it("several streams of one big run that are never read do not each read the run's whole log", async () => {
    const { token, runId, events: stored } = await bigRun(1024);
    const { GET: events } = await import('./[id]/events/route');
    // What the streams take from the database is what they hold: counted, not guessed from the heap.
    const { q } = server.rt();
    const listEvents = q.events.listEvents.bind(q.events);
    let rowsRead = 0;
    const spy = vi.spyOn(q.events, 'listEvents').mockImplementation(async (input) => {
      const rows = await listEvents(input);
      rowsRead += rows.length;
      return rows;
    });
    const controllers: AbortController[] = [];
    const streams = 8;
    try {
      for (let i = 0; i < streams; i++) {
        const controller = new AbortController();
        controllers.push(controller);
        const response = await events(
          new Request(apiRequest('GET', `/api/runs/${runId}/events`, { token }), { signal: controller.signal }),
          { params: Promise.resolve({ id: runId }) },
        );
        expect(response.status).toBe(200);
        // The body is never read: a client that connected and stopped reading.
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // Each stream read a page and waits for its reader; reading the whole log each is the fault.
      expect(rowsRead).toBeGreaterThan(0);
      expect(rowsRead).toBeLessThanOrEqual(streams * 2 * REPLAY_PAGE);
      expect(rowsRead).toBeLessThan((streams * stored) / 4);
    } finally {
      spy.mockRestore();
      for (const controller of controllers) controller.abort();
    }
  }, 60_000);

  it('a slow client of a big run gets every event once, in order, with live events after the replayed ones', async () => {
    const { token, runId, events: stored } = await bigRun();
    const { GET: events } = await import('./[id]/events/route');
    const controller = new AbortController();
    const response = await events(
      new Request(apiRequest('GET', `/api/runs/${runId}/events`, { token }), { signal: controller.signal }),
      { params: Promise.resolve({ id: runId }) },
    );
    expect(response.status).toBe(200);
    const body = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const ids: number[] = [];
    const live = 3;
    try {
      while (ids.length < stored + live) {
        // A reader slower than the server reads the log: it pauses before every read.
        await new Promise((resolve) => setTimeout(resolve, 5));
        const chunk = await body.read();
        if (chunk.done) break;
        text += decoder.decode(chunk.value, { stream: true });
        for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          expect(block).not.toMatch(/^event: error$/m);
          const id = /^id: (\d+)$/m.exec(block)?.[1];
          if (id) ids.push(Number(id));
          // Halfway through the replay, the run goes on: these come live, after the stored ones.
          if (ids.length === stored / 2 && id)
            await server.rt().runs.log.append(
              runId,
              Array.from({ length: live }, () => ({
                type: 'text' as const,
                runId,
                agentId: 'main',
                parents: [],
                content: 'live',
              })),
            );
        }
      }
    } finally {
      controller.abort();
    }
    expect(ids).toEqual(Array.from({ length: stored + live }, (_, i) => i + 1));
  }, 60_000);
});
