// The shadow policy and the decisions it would have made differently. One row holds the shadow
// (replacing it gives a new id, so its differences, deleted by cascade, and counters start fresh);
// the background writer records a batch in one statement that only lands while that shadow is
// still the current one.
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Policy } from '../policy/types';
import type { Database } from './database';
import { newestFirst, olderThan, pageSize, toPage, type Page } from './pagination';
import { policyShadow, policyShadowDiffs, type PolicyShadowDiffRow, type PolicyShadowRow } from './schema';

export interface SetShadowInput {
  policy: Policy;
  /** The live policy version the shadow was set against. */
  baseVersion: number;
  createdBy: string;
  note?: string;
}

export interface NewShadowDiff {
  at: Date;
  runId?: string;
  agentId: string;
  tool: string;
  params: Record<string, unknown>;
  liveAction: string;
  shadowAction: string;
  live: Record<string, unknown>;
  shadow: Record<string, unknown>;
}

/** Differences stored per shadow at most; past it they are only counted (compared - same). */
export const MAX_STORED_SHADOW_DIFFS = 10_000;

export interface ShadowBatch {
  shadowId: string;
  diffs: NewShadowDiff[];
  /** Decisions compared in this batch (identical ones included). */
  compared: number;
  same: number;
  dropped: number;
}

export interface ShadowDiffGroup {
  liveAction: string;
  shadowAction: string;
  tool: string;
  count: number;
  examples: PolicyShadowDiffRow[];
}

export function shadowQueries(db: Database) {
  return {
    async getShadow(): Promise<PolicyShadowRow | undefined> {
      const [row] = await db.select().from(policyShadow).limit(1);
      return row;
    },

    /** Replaces the shadow (its differences go with it). Concurrent sets: the last one stands. */
    async setShadow({ policy, baseVersion, createdBy, note }: SetShadowInput): Promise<PolicyShadowRow> {
      for (let attempt = 0; attempt < 5; attempt++) {
        const row = await db.transaction(async (tx) => {
          await tx.delete(policyShadow).where(eq(policyShadow.slot, 'current'));
          const [inserted] = await tx
            .insert(policyShadow)
            .values({ id: randomUUID(), policy, baseVersion, createdBy, note })
            .onConflictDoNothing({ target: policyShadow.slot })
            .returning();
          return inserted;
        });
        if (row) return row;
        // Another set committed between our delete and insert: replace theirs.
      }
      throw new Error('Could not set the shadow policy: it kept changing');
    },

    /** Removes the shadow (only that one when `id` is given); false when there was none. */
    async clearShadow({ id }: { id?: string } = {}): Promise<boolean> {
      const rows = await db
        .delete(policyShadow)
        .where(id === undefined ? eq(policyShadow.slot, 'current') : eq(policyShadow.id, id))
        .returning({ id: policyShadow.id });
      return rows.length > 0;
    },

    /**
     * Adds a batch's counters and differences in one statement, only while `shadowId` is the
     * current shadow (a batch for a replaced or cleared shadow is discarded), and no more than
     * `maxStored` differences per shadow (the rest only counted). Returns the number stored.
     */
    async recordShadowBatch(
      { shadowId, diffs, compared, same, dropped }: ShadowBatch,
      maxStored = MAX_STORED_SHADOW_DIFFS,
    ): Promise<number> {
      const rows = diffs.map((d, i) => ({
        n: i + 1,
        id: randomUUID(),
        at: d.at.toISOString(),
        run_id: d.runId ?? null,
        agent_id: d.agentId,
        tool: d.tool,
        params: d.params,
        live_action: d.liveAction,
        shadow_action: d.shadowAction,
        live: d.live,
        shadow: d.shadow,
      }));
      const result = (await db.execute(sql`
        WITH s AS (
          UPDATE policy_shadow SET compared = compared + ${compared}, same = same + ${same}, dropped = dropped + ${dropped}
          WHERE id = ${shadowId} RETURNING id, compared - same AS differ
        )
        INSERT INTO policy_shadow_diffs (id, shadow_id, at, run_id, agent_id, tool, params, live_action, shadow_action, live, shadow)
        SELECT x.id, s.id, x.at, x.run_id, x.agent_id, x.tool, x.params, x.live_action, x.shadow_action, x.live, x.shadow
        FROM s, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS x(id text, at timestamptz, run_id text, agent_id text, tool text, params jsonb, live_action text, shadow_action text, live jsonb, shadow jsonb, n integer)
        -- The cap, on the counter (differences so far, this batch's included): no count(*) per batch.
        WHERE s.differ - ${rows.length} + x.n <= ${maxStored}
        RETURNING 1`)) as unknown as { rows?: unknown[]; rowCount?: number | null };
      return result.rows?.length ?? result.rowCount ?? 0;
    },

    /** Counts by (live -> shadow, tool), largest first, each with its `examples` newest differences. */
    async summarizeShadowDiffs({
      shadowId,
      examples = 3,
      maxGroups = 100,
    }: {
      shadowId: string;
      examples?: number;
      maxGroups?: number;
    }): Promise<ShadowDiffGroup[]> {
      const d = policyShadowDiffs;
      const groups = await db
        .select({
          liveAction: d.liveAction,
          shadowAction: d.shadowAction,
          tool: d.tool,
          count: sql<number>`count(*)::int`,
        })
        .from(d)
        .where(eq(d.shadowId, shadowId))
        .groupBy(d.liveAction, d.shadowAction, d.tool)
        .orderBy(sql`count(*) desc`, d.liveAction, d.shadowAction, d.tool)
        .limit(maxGroups);
      return Promise.all(
        groups.map(async (group) => ({
          ...group,
          examples: await db
            .select()
            .from(d)
            .where(
              and(
                eq(d.shadowId, shadowId),
                eq(d.liveAction, group.liveAction),
                eq(d.shadowAction, group.shadowAction),
                eq(d.tool, group.tool),
              ),
            )
            .orderBy(...newestFirst(d.at, d.id))
            .limit(examples),
        })),
      );
    },

    /** The differences newest first, a page at a time. */
    async listShadowDiffs({
      shadowId,
      limit,
      cursor,
    }: {
      shadowId: string;
      limit?: number;
      cursor?: string;
    }): Promise<Page<PolicyShadowDiffRow>> {
      const size = pageSize(limit);
      const d = policyShadowDiffs;
      const rows = await db
        .select()
        .from(d)
        .where(and(eq(d.shadowId, shadowId), olderThan(d.at, d.id, cursor)))
        .orderBy(...newestFirst(d.at, d.id))
        .limit(size + 1);
      return toPage(rows, size, (row) => ({ at: row.at, id: row.id }));
    },
  };
}

export type ShadowQueries = ReturnType<typeof shadowQueries>;
