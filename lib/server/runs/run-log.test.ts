// The log's replay reads a page at a time and waits for a reader that is behind, and the seam
// between the replay and live events loses nothing and repeats nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LoggedEvent, RunEvent } from '../../contract';
import type { Queries } from '../../db';
import { createQueries } from '../../db/queries';
import { openScratchStore } from '../../db/test-support/stores';
import { REPLAY_PAGE, RunLog } from './run-log';

let q: Queries;
let dispose: () => Promise<void>;
beforeAll(async () => {
  const store = await openScratchStore('pglite');
  q = createQueries(store.handle.db);
  dispose = store.dispose;
}, 60_000);
afterAll(() => dispose());

let runs = 0;
let runId = '';
/** The limit of every read of the log, in order. */
let reads: (number | undefined)[] = [];
let log: RunLog;
beforeEach(async () => {
  runId = `run-${++runs}`;
  await q.runs.createRun({ id: runId, sessionId: 's', status: 'running' });
  reads = [];
  const events: Queries['events'] = {
    ...q.events,
    listEvents: (input) => (reads.push(input.limit), q.events.listEvents(input)),
  };
  log = new RunLog(events, undefined, (error) => {
    throw error;
  });
});

const text = (content: string): RunEvent => ({ type: 'text', runId, agentId: 'main', parents: [], content });
const append = (count: number) =>
  log.append(
    runId,
    Array.from({ length: count }, (_, i) => text(`e${i}`)),
  );
const seqs = (events: LoggedEvent[]) => events.map((event) => event.seq);
const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A reader that is behind after every event: it catches up a turn later, after what the test
 * does at that seq (`at`), or, while `hold` is set, only when the test lets it.
 */
function slowReader(at: Record<number, () => Promise<unknown>> = {}) {
  const got: LoggedEvent[] = [];
  let held: (() => void) | undefined;
  const reader = {
    got,
    hold: false,
    listener: async (event: LoggedEvent) => {
      got.push(event);
      if (reader.hold) await new Promise<void>((resolve) => (held = resolve));
      await turn();
      await at[event.seq]?.();
    },
    release: () => {
      reader.hold = false;
      held?.();
    },
  };
  return reader;
}

describe('RunLog.subscribe: the replay', () => {
  it('reads the log a page at a time and reads on only once the reader has caught up', async () => {
    const total = 2 * REPLAY_PAGE + 5;
    await append(total);
    const reader = slowReader();
    reader.hold = true;
    const subscribed = log.subscribe(runId, 0, reader.listener);
    for (let i = 0; i < 5; i++) await turn();
    expect(seqs(reader.got)).toEqual([1]);
    expect(reads).toEqual([REPLAY_PAGE]);
    reader.release();
    const unsubscribe = await subscribed;
    expect(seqs(reader.got)).toEqual(upTo(total));
    expect(reads).toEqual([REPLAY_PAGE, REPLAY_PAGE, REPLAY_PAGE]);
    unsubscribe();
  });

  it('resumes after the seq it is given (Last-Event-ID)', async () => {
    await append(REPLAY_PAGE + 3);
    const got: LoggedEvent[] = [];
    const unsubscribe = await log.subscribe(runId, REPLAY_PAGE - 1, (event) => got.push(event));
    expect(seqs(got)).toEqual([REPLAY_PAGE, REPLAY_PAGE + 1, REPLAY_PAGE + 2, REPLAY_PAGE + 3]);
    unsubscribe();
  });

  it('events appended while the replay waits come once each, in order, after the replayed ones', async () => {
    await append(REPLAY_PAGE + 2);
    // Live events while the reader is behind: in the first page, then in the last (short) one.
    const reader = slowReader({ 4: () => append(2), [REPLAY_PAGE + 2]: () => append(2) });
    const unsubscribe = await log.subscribe(runId, 0, reader.listener);
    expect(seqs(reader.got)).toEqual(upTo(REPLAY_PAGE + 2 + 4));
    await append(3);
    await turn();
    expect(seqs(reader.got)).toEqual(upTo(REPLAY_PAGE + 2 + 4 + 3));
    unsubscribe();
  });

  it('a reader that leaves mid-replay stops it: subscribe rejects and nothing more is read or delivered', async () => {
    await append(2 * REPLAY_PAGE);
    const got: LoggedEvent[] = [];
    const gone = new Error('the stream has ended');
    const subscribed = log.subscribe(runId, 0, (event) => {
      got.push(event);
      return event.seq === 3 ? Promise.reject(gone) : undefined;
    });
    await expect(subscribed).rejects.toBe(gone);
    await append(2);
    await turn();
    expect(seqs(got)).toEqual([1, 2, 3]);
    expect(reads).toEqual([REPLAY_PAGE]);
  });

  it('a live event is not held back for a reader that is behind, and its refusal is no unhandled rejection', async () => {
    const got: LoggedEvent[] = [];
    const unsubscribe = await log.subscribe(runId, 0, (event) => {
      got.push(event);
      return Promise.reject(new Error('the stream has ended'));
    });
    await append(3);
    await turn();
    expect(seqs(got)).toEqual([1, 2, 3]);
    unsubscribe();
  });
});
