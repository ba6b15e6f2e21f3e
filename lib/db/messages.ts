// The transcript of a run, one row per model message, numbered like events. The resumable
// conversation itself lives in runs.state; this table is what the UI and audits read.
import { and, asc, eq, gt } from 'drizzle-orm';
import type { Database } from './database';
import { messages, type MessageRow } from './schema';
import { reserveSeqs } from './sequence';

export interface NewMessage {
  role: string;
  content: unknown;
}

export function messageQueries(db: Database) {
  return {
    /** Appends in order, in one transaction. Throws RunNotFoundError for an unknown run. */
    async appendMessages({ runId, messages: batch }: { runId: string; messages: NewMessage[] }): Promise<MessageRow[]> {
      if (batch.length === 0) return [];
      return db.transaction(async (tx) => {
        const first = await reserveSeqs(tx, runId, 'lastMessageSeq', batch.length);
        return tx
          .insert(messages)
          .values(batch.map((message, i) => ({ runId, seq: first + i, role: message.role, content: message.content })))
          .returning();
      });
    },

    /** In seq order. */
    async listMessages({ runId, afterSeq }: { runId: string; afterSeq?: number }): Promise<MessageRow[]> {
      return db
        .select()
        .from(messages)
        .where(and(eq(messages.runId, runId), afterSeq === undefined ? undefined : gt(messages.seq, afterSeq)))
        .orderBy(asc(messages.seq));
    },
  };
}

export type MessageQueries = ReturnType<typeof messageQueries>;
