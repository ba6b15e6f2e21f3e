// The approvals inbox: relays across runs and sources (agent loop, hooks, MCP), oldest deadline
// first, keyset-paginated over (expires_at, id). Who may decide them is the caller's filter
// (`owner`), applied here so that pages stay full; the route re-checks each row with the one rule.
import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import type { RelayStatus } from '../contract';
import type { Database } from './database';
import { decodeCursor, toPage, type Page } from './pagination';
import { relays, runs, type RelayRow } from './schema';

export interface ListRelaysInput {
  status?: RelayStatus;
  runId?: string;
  sessionId?: string;
  agentId?: string;
  tool?: string;
  risk?: string;
  /** Only relays of runs this user owns (a caller who may decide only their own). */
  owner?: string;
  limit: number;
  cursor?: string;
}

/** A listed relay and the owner of its run (what deciding it is judged by). */
export type InboxRow = RelayRow & { owner: string | null; source: string };

/** Rows after the cursor in (at asc, id asc) order. */
function after(cursor: string | undefined) {
  if (cursor === undefined) return undefined;
  const key = decodeCursor(cursor);
  return or(gt(relays.expiresAt, key.at), and(eq(relays.expiresAt, key.at), gt(relays.id, key.id)));
}

function filters(input: Omit<ListRelaysInput, 'limit' | 'cursor'>) {
  const pending = input.status === 'pending';
  return [
    input.status ? eq(relays.status, input.status) : undefined,
    // A pending relay past its deadline is about to expire: nobody can decide it any more.
    pending ? gt(relays.expiresAt, sql`now()`) : undefined,
    input.runId ? eq(relays.runId, input.runId) : undefined,
    input.sessionId ? eq(relays.sessionId, input.sessionId) : undefined,
    input.agentId ? eq(relays.agentId, input.agentId) : undefined,
    input.tool ? eq(relays.tool, input.tool) : undefined,
    input.risk ? sql`${relays.request}->>'risk' = ${input.risk}` : undefined,
    input.owner !== undefined ? eq(runs.owner, input.owner) : undefined,
  ];
}

export function relayInboxQueries(db: Database) {
  return {
    async listRelays(input: ListRelaysInput): Promise<Page<InboxRow>> {
      const rows = await db
        .select({ relay: relays, owner: runs.owner, source: runs.source })
        .from(relays)
        .innerJoin(runs, eq(runs.id, relays.runId))
        .where(and(...filters(input), after(input.cursor)))
        .orderBy(asc(relays.expiresAt), asc(relays.id))
        .limit(input.limit + 1);
      const page = toPage(rows, input.limit, (row) => ({ at: row.relay.expiresAt, id: row.relay.id }));
      return {
        items: page.items.map((row) => ({ ...row.relay, owner: row.owner, source: row.source })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    },

    /** How many relays match the filters, on every page together. */
    async countRelays(input: Omit<ListRelaysInput, 'limit' | 'cursor'>): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(relays)
        .innerJoin(runs, eq(runs.id, relays.runId))
        .where(and(...filters(input)));
      return Number(row?.n ?? 0);
    },

    /** One relay with its run's owner; undefined when unknown. */
    async getInboxRelay({ id }: { id: string }): Promise<InboxRow | undefined> {
      const [row] = await db
        .select({ relay: relays, owner: runs.owner, source: runs.source })
        .from(relays)
        .innerJoin(runs, eq(runs.id, relays.runId))
        .where(eq(relays.id, id));
      return row ? { ...row.relay, owner: row.owner, source: row.source } : undefined;
    },
  };
}

export type RelayInboxQueries = ReturnType<typeof relayInboxQueries>;
