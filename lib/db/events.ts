// The append-only event log of a run. Each event gets the run's next seq (gapless, unique, safe
// under concurrent appends); readers resume after the last seq they saw (SSE Last-Event-ID).
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Database } from './database';
import { events, type EventRow } from './schema';
import { reserveSeqs } from './sequence';

export interface NewEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface ListEventsInput {
  runId: string;
  afterSeq?: number;
  limit?: number;
}

export function eventQueries(db: Database) {
  /** Appends in order, in one transaction. Throws RunNotFoundError for an unknown run. */
  async function appendEvents({ runId, events: batch }: { runId: string; events: NewEvent[] }): Promise<EventRow[]> {
    if (batch.length === 0) return [];
    return db.transaction(async (tx) => {
      const first = await reserveSeqs(tx, runId, 'lastEventSeq', batch.length);
      return tx
        .insert(events)
        .values(batch.map((event, i) => ({ runId, seq: first + i, type: event.type, data: event.data })))
        .returning();
    });
  }

  return {
    appendEvents,

    async appendEvent({ runId, type, data }: { runId: string } & NewEvent): Promise<EventRow> {
      const [row] = await appendEvents({ runId, events: [{ type, data }] });
      return row!;
    },

    /** In seq order. */
    async listEvents({ runId, afterSeq, limit }: ListEventsInput): Promise<EventRow[]> {
      const query = db
        .select()
        .from(events)
        .where(and(eq(events.runId, runId), afterSeq === undefined ? undefined : gt(events.seq, afterSeq)))
        .orderBy(asc(events.seq));
      return limit === undefined ? query : query.limit(limit);
    },
  };
}

export type EventQueries = ReturnType<typeof eventQueries>;
