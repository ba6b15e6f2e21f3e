// Run leases: which instance executes a run. Every transition is one conditional statement judged
// by the database clock (now()), so of several instances racing for a run exactly one holds it, and
// a dead instance's runs become takeover candidates once its leases lapse (docs/DEPLOY.md).
// `epoch` rises whenever a lease changes hands, so a stale owner can be fenced off by it.
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { LIVE_RUN_STATUSES } from '../contract';
import type { Mode } from '../policy/types';
import type { Database } from './database';
import { runLeases, runs, type RunLeaseRow, type RunStatus } from './schema';
import { rowsOf } from './statement';

export interface AcquireLeaseInput {
  runId: string;
  owner: string;
  /** Lease length in seconds (fractions allowed). */
  ttlS: number;
}

export interface RenewLeasesInput {
  owner: string;
  ttlS: number;
  /**
   * Renew only these runs (the ones this process is actually executing). Without it every lease
   * recorded for `owner` is renewed, which is only right while instance ids are never reused.
   */
  runIds?: string[];
}

/** A lease renewed, with its run's status and mode now (another instance may have changed them). */
export interface RenewedLease {
  runId: string;
  status: RunStatus;
  mode: Mode | null;
}

export interface TakeoverCandidate {
  runId: string;
  status: RunStatus;
  /** The last holder (null: released, or never leased). */
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
}

/** Statuses whose runs need an executing instance. */

function seconds(ttlS: number): number {
  if (!Number.isFinite(ttlS) || ttlS <= 0)
    throw new RangeError(`ttlS must be a positive number of seconds, got ${ttlS}`);
  return ttlS;
}

const expiry = (ttlS: number) => sql`now() + make_interval(secs => ${seconds(ttlS)}::double precision)`;

interface RawLease {
  run_id: string;
  owner: string | null;
  expires_at: string | Date;
  epoch: number | string;
  acquired_at: string | Date;
}

function toLeaseRow(row: RawLease): RunLeaseRow {
  // Hand-written statements get timestamps as text (Drizzle's parsers): map them as Drizzle would.
  const date = (value: string | Date) =>
    value instanceof Date ? value : (runLeases.expiresAt.mapFromDriverValue(value) as Date);
  return {
    runId: row.run_id,
    owner: row.owner,
    expiresAt: date(row.expires_at),
    epoch: Number(row.epoch),
    acquiredAt: date(row.acquired_at),
  };
}

export function leaseQueries(db: Database) {
  return {
    /**
     * Takes the lease of an existing run when it is free (never leased, released or expired) or
     * already ours, and sets its expiry to now() + ttl. One INSERT ... ON CONFLICT DO UPDATE ...
     * WHERE: concurrent callers serialize on the primary key and exactly one gets the row.
     * Undefined when another owner holds a live lease, or the run does not exist.
     */
    async acquireLease({ runId, owner, ttlS }: AcquireLeaseInput): Promise<RunLeaseRow | undefined> {
      const result = await db.execute(sql`
        INSERT INTO run_leases (run_id, owner, expires_at, epoch, acquired_at)
        SELECT id, ${owner}, ${expiry(ttlS)}, 1, now() FROM runs WHERE id = ${runId}
        ON CONFLICT (run_id) DO UPDATE SET
          owner = excluded.owner,
          expires_at = excluded.expires_at,
          epoch = CASE WHEN run_leases.owner IS NOT DISTINCT FROM excluded.owner THEN run_leases.epoch ELSE run_leases.epoch + 1 END,
          acquired_at = CASE WHEN run_leases.owner IS NOT DISTINCT FROM excluded.owner THEN run_leases.acquired_at ELSE now() END
        WHERE run_leases.owner IS NULL OR run_leases.owner = excluded.owner OR run_leases.expires_at <= now()
        RETURNING run_id, owner, expires_at, epoch, acquired_at
      `);
      const [row] = rowsOf<RawLease>(result);
      return row ? toLeaseRow(row) : undefined;
    },

    /**
     * Extends every lease `owner` still holds (optionally only `runIds`) in one statement; returns
     * the leases renewed, by run id, with each run's status and mode now (so the executor sees a
     * cancellation or a mode change made through another instance even if its notification was
     * lost). A lease that lapsed but that nobody took is renewed too: the owner never changed, so
     * nobody else executed the run meanwhile. A run missing from the answer was taken over (or
     * released): its executor must stop.
     */
    async renewLeases({ owner, ttlS, runIds }: RenewLeasesInput): Promise<RenewedLease[]> {
      if (runIds && runIds.length === 0) return [];
      const only = runIds
        ? sql` AND run_leases.run_id IN (${sql.join(
            runIds.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql``;
      const result = await db.execute(sql`
        UPDATE run_leases SET expires_at = ${expiry(ttlS)}
        FROM runs
        WHERE runs.id = run_leases.run_id AND run_leases.owner = ${owner}${only}
        RETURNING run_leases.run_id, runs.status, runs.mode`);
      return rowsOf<{ run_id: string; status: RunStatus; mode: Mode | null }>(result)
        .map((row) => ({ runId: row.run_id, status: row.status, mode: row.mode }))
        .sort((a, b) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
    },

    /** Gives a lease up (the run finished, or this instance is shutting down). False if not ours. */
    async releaseLease({ runId, owner }: { runId: string; owner: string }): Promise<boolean> {
      const rows = await db
        .update(runLeases)
        .set({ owner: null, expiresAt: sql`now()` })
        .where(and(eq(runLeases.runId, runId), eq(runLeases.owner, owner)))
        .returning({ runId: runLeases.runId });
      return rows.length === 1;
    },

    async getLease({ runId }: { runId: string }): Promise<RunLeaseRow | undefined> {
      const [row] = await db.select().from(runLeases).where(eq(runLeases.runId, runId));
      return row;
    },

    /**
     * Runs that need an executor and have none: status running/waiting, and no lease row, a
     * released one, or one past its expiry. Oldest first. Listing takes nothing: a taker must still
     * win `acquireLease`.
     */
    async listTakeoverCandidates({ limit = 100 }: { limit?: number } = {}): Promise<TakeoverCandidate[]> {
      const size = Math.max(1, Math.min(1000, Math.floor(limit)));
      return db
        .select({
          runId: runs.id,
          status: runs.status,
          leaseOwner: runLeases.owner,
          leaseExpiresAt: runLeases.expiresAt,
        })
        .from(runs)
        .leftJoin(runLeases, eq(runLeases.runId, runs.id))
        .where(
          and(
            inArray(runs.status, [...LIVE_RUN_STATUSES]),
            // Outside runs have no executor here: their agent holds the conversation.
            eq(runs.source, 'agent'),
            or(isNull(runLeases.runId), isNull(runLeases.owner), lte(runLeases.expiresAt, sql`now()`)),
          ),
        )
        .orderBy(asc(runs.createdAt), asc(runs.id))
        .limit(size);
    },
  };
}

export type LeaseQueries = ReturnType<typeof leaseQueries>;
