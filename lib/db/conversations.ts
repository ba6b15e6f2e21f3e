// Conversations (chat sessions): the runs that share a session id, one row per session for the
// chat's list. A session has no table of its own: its owner is its first run's owner (an admin
// may add a run to someone's session; it stays theirs, as assertSessionUsable has it), its title
// its first run's, and it sorts by its latest run. Keyset pagination over (latest run, session id).
import { sql } from 'drizzle-orm';
import type { Database } from './database';
import { decodeCursor, pageSize, toPage, type Page } from './pagination';
import type { RunStatus } from './schema';
import { rowsOf } from './statement';

export interface ConversationRow {
  sessionId: string;
  owner: string | null;
  title: string | null;
  runCount: number;
  lastRunId: string;
  lastStatus: RunStatus;
  createdAt: Date;
  lastRunAt: Date;
}

export interface ListConversationsInput {
  /** Only sessions whose first run this user owns. */
  owner?: string;
  limit?: number;
  cursor?: string;
}

interface RawRow {
  session_id: string;
  owner: string | null;
  title: string | null;
  run_count: number | string;
  last_run_id: string;
  last_status: RunStatus;
  created_at: Date | string;
  last_run_at: Date | string;
}

export function conversationQueries(db: Database) {
  return {
    /** Newest activity first. */
    async listConversations({ owner, limit, cursor }: ListConversationsInput = {}): Promise<Page<ConversationRow>> {
      const size = pageSize(limit);
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const firstOwner = sql`(array_agg(owner ORDER BY created_at, id))[1]`;
      const conditions = [
        owner === undefined ? undefined : sql`${firstOwner} = ${owner}`,
        after === undefined
          ? undefined
          : sql`(max(created_at) < ${after.at.toISOString()}::timestamptz OR (max(created_at) = ${after.at.toISOString()}::timestamptz AND session_id < ${after.id}))`,
      ].filter((c) => c !== undefined);
      const having = conditions.length === 0 ? sql`` : sql`HAVING ${sql.join(conditions, sql` AND `)}`;
      const result = await db.execute(sql`
        SELECT session_id,
               ${firstOwner} AS owner,
               (array_agg(title ORDER BY created_at, id))[1] AS title,
               count(*) AS run_count,
               (array_agg(id ORDER BY created_at DESC, id DESC))[1] AS last_run_id,
               (array_agg(status ORDER BY created_at DESC, id DESC))[1] AS last_status,
               min(created_at) AS created_at,
               max(created_at) AS last_run_at
        FROM runs
        GROUP BY session_id
        ${having}
        ORDER BY max(created_at) DESC, session_id DESC
        LIMIT ${size + 1}`);
      const rows = rowsOf<RawRow>(result).map(toRow);
      return toPage(rows, size, (row) => ({ at: row.lastRunAt, id: row.sessionId }));
    },
  };
}

function toRow(raw: RawRow): ConversationRow {
  return {
    sessionId: raw.session_id,
    owner: raw.owner,
    title: raw.title,
    runCount: Number(raw.run_count),
    lastRunId: raw.last_run_id,
    lastStatus: raw.last_status,
    createdAt: new Date(raw.created_at),
    lastRunAt: new Date(raw.last_run_at),
  };
}

export type ConversationQueries = ReturnType<typeof conversationQueries>;
