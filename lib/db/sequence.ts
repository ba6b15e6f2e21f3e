// Per-run sequence numbers for events and messages. The run row's counter is bumped inside the
// caller's transaction: the row lock serializes concurrent appenders, and a rolled-back append
// rolls its numbers back too, so sequences stay gapless and unique.
import { eq, sql } from 'drizzle-orm';
import type { Database } from './database';
import { RunNotFoundError } from './errors';
import { runs } from './schema';

/** Reserves `count` numbers for the run and returns the first. Call inside a transaction. */
export async function reserveSeqs(
  tx: Database,
  runId: string,
  counter: 'lastEventSeq' | 'lastMessageSeq',
  count: number,
): Promise<number> {
  const column = runs[counter];
  const [row] = await tx
    .update(runs)
    .set({ [counter]: sql`${column} + ${count}` })
    .where(eq(runs.id, runId))
    .returning({ last: column });
  if (!row) throw new RunNotFoundError(runId);
  return row.last - count + 1;
}
