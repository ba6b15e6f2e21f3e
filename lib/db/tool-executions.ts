// At most one execution per tool call, across restarts and instances: whoever inserts the claim
// row first runs the tool; everyone else sees the claim (and, once finished, the stored result).
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from './database';
import { toolExecutions, type ToolExecutionRow } from './schema';

export interface ToolCallKey {
  runId: string;
  toolCallId: string;
}

const byKey = ({ runId, toolCallId }: ToolCallKey) =>
  and(eq(toolExecutions.runId, runId), eq(toolExecutions.toolCallId, toolCallId));

export function toolExecutionQueries(db: Database) {
  return {
    /** True only for the first claimer of this tool call. */
    async claimToolExecution({ runId, toolCallId }: ToolCallKey): Promise<boolean> {
      const rows = await db
        .insert(toolExecutions)
        .values({ runId, toolCallId })
        .onConflictDoNothing()
        .returning({ toolCallId: toolExecutions.toolCallId });
      return rows.length === 1;
    },

    /** Stores the result of a claimed execution; undefined if it was not claimed or is already done. */
    async finishToolExecution({ result, ...key }: ToolCallKey & { result: unknown }): Promise<ToolExecutionRow | undefined> {
      const [row] = await db
        .update(toolExecutions)
        .set({ status: 'done', result, finishedAt: sql`now()` })
        .where(and(byKey(key), eq(toolExecutions.status, 'claimed')))
        .returning();
      return row;
    },

    async getToolExecution(key: ToolCallKey): Promise<ToolExecutionRow | undefined> {
      const [row] = await db.select().from(toolExecutions).where(byKey(key));
      return row;
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
