// At most one execution per tool call, across restarts and instances: whoever inserts the claim
// row first runs the tool; everyone else sees the claim (and, once finished, the stored result).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from './database';
import { fenceFailure, leaseHeldBy } from './lease-fence';
import { toolExecutions, type ToolExecutionRow } from './schema';
import { rowsOf } from './statement';
import { storableValue } from './storable-json';

export interface ToolCallKey {
  runId: string;
  toolCallId: string;
}

const byKey = ({ runId, toolCallId }: ToolCallKey) =>
  and(eq(toolExecutions.runId, runId), eq(toolExecutions.toolCallId, toolCallId));

export function toolExecutionQueries(db: Database) {
  return {
    /**
     * True only for the first claimer of this tool call. With `leaseOwner` (several instances) the
     * claim is made only while that owner holds the run's lease; else LeaseLostError.
     */
    async claimToolExecution({
      runId,
      toolCallId,
      leaseOwner,
    }: ToolCallKey & { leaseOwner?: string }): Promise<boolean> {
      if (leaseOwner === undefined) {
        const rows = await db
          .insert(toolExecutions)
          .values({ runId, toolCallId })
          .onConflictDoNothing()
          .returning({ toolCallId: toolExecutions.toolCallId });
        return rows.length === 1;
      }
      const result = await db.execute(sql`
        INSERT INTO tool_executions (run_id, tool_call_id)
        SELECT ${runId}, ${toolCallId} WHERE ${leaseHeldBy(runId, leaseOwner)}
        ON CONFLICT DO NOTHING
        RETURNING tool_call_id`);
      if (rowsOf(result).length === 1) return true;
      const holds = rowsOf<{ holds: boolean }>(
        await db.execute(sql`SELECT ${leaseHeldBy(runId, leaseOwner)} AS holds`),
      )[0]?.holds;
      if (!holds) throw await fenceFailure(db, runId, leaseOwner);
      return false;
    },

    /** Stores the result of a claimed execution; undefined if it was not claimed or is already done. */
    async finishToolExecution({
      result,
      ...key
    }: ToolCallKey & { result: unknown }): Promise<ToolExecutionRow | undefined> {
      const [row] = await db
        .update(toolExecutions)
        // A tool's output may hold what jsonb refuses (a NUL): stored as U+FFFD (storable-json.ts).
        .set({ status: 'done', result: storableValue(result), finishedAt: sql`now()` })
        .where(and(byKey(key), eq(toolExecutions.status, 'claimed')))
        .returning();
      return row;
    },

    async getToolExecution(key: ToolCallKey): Promise<ToolExecutionRow | undefined> {
      const [row] = await db.select().from(toolExecutions).where(byKey(key));
      return row;
    },

    /** The call ids of a run's claimed executions (finished or not). */
    async listClaimedCallIds({ runId }: { runId: string }): Promise<string[]> {
      const rows = await db
        .select({ toolCallId: toolExecutions.toolCallId })
        .from(toolExecutions)
        .where(eq(toolExecutions.runId, runId));
      return rows.map((row) => row.toolCallId);
    },

    /** A run's executions in claim order; after a restart, `claimed` ones may or may not have run. */
    async listToolExecutions({ runId }: { runId: string }): Promise<ToolExecutionRow[]> {
      return db
        .select()
        .from(toolExecutions)
        .where(eq(toolExecutions.runId, runId))
        .orderBy(asc(toolExecutions.claimedAt), asc(toolExecutions.toolCallId));
    },
  };
}

export type ToolExecutionQueries = ReturnType<typeof toolExecutionQueries>;
