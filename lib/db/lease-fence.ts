// The lease fence: a write made by a run's executor carries the owner it believes holds the run's
// lease, and the database applies it only while that is still true. An instance that lost a lease
// (it was cut off from the database for longer than the TTL and another instance adopted the run)
// therefore cannot append to the run's log, overwrite its checkpoint or claim its tool calls: its
// write fails with LeaseLostError and it stops its copy of the run (docs/DEPLOY.md).
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from './database';
import { LeaseLostError, RunNotFoundError } from './errors';
import { rowsOf } from './statement';

/** `EXISTS (...)`: true while `owner` holds the lease of `runId` (expired or not: nobody took it). */
export function leaseHeldBy(runId: string | SQL, owner: string): SQL {
  return sql`EXISTS (SELECT 1 FROM run_leases WHERE run_leases.run_id = ${runId} AND run_leases.owner = ${owner})`;
}

/**
 * After a fenced write touched nothing: the error that says why. One extra read, on the failure
 * path only.
 */
export async function fenceFailure(db: Database, runId: string, owner: string | undefined): Promise<Error> {
  const result = await db.execute(sql`
    SELECT EXISTS (SELECT 1 FROM runs WHERE id = ${runId}) AS run_exists,
           (SELECT owner FROM run_leases WHERE run_id = ${runId}) AS holder`);
  const [row] = rowsOf<{ run_exists: boolean; holder: string | null }>(result);
  if (!row?.run_exists) return new RunNotFoundError(runId);
  if (owner === undefined) return new RunNotFoundError(runId);
  return new LeaseLostError(runId, owner, row.holder ?? null);
}
