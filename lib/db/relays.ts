// Pending approvals. Every transition out of `pending` is one conditional UPDATE, so exactly one
// decision wins however many instances race; deadlines are judged by the database clock (now()).
import { and, asc, desc, eq, getTableColumns, gt, lte, ne, sql } from 'drizzle-orm';
import type { RelayOutcome, RelayRecord, RelayRequest, RelayResponse } from '../contract';
import type { Database } from './database';
import { fenceFailure, leaseHeldBy } from './lease-fence';
import { compiledStatement, directRows, type Slots } from './prepared';
import { rowOfColumns, rowsOf } from './statement';
import { relays, runs, type RelayRow } from './schema';

export const APPROVAL_TIMEOUT_REASON = 'Approval timeout';

export interface ResolveRelayInput {
  id: string;
  status: 'approved' | 'denied' | 'cancelled';
  response?: RelayResponse;
  reason?: string;
  decidedBy: string;
  /**
   * An approval that also claims its tool call (tool_executions) in the same statement, for the
   * executor of the run: the call is recorded as started by the approval itself, so the executor
   * starts it without a statement of its own. With `leaseOwner` the claim is made only while that
   * owner holds the run's lease. Ignored for anything but an approval.
   */
  claim?: { toolCallId: string; leaseOwner?: string };
}

/** What deciding a relay is judged by: its session, its run and the run's owner (none of them ever changes). */
export interface RelayAccess {
  sessionId: string;
  runId: string;
  owner: string | null;
}

/** A decision as recorded: the columns a settlement returns (not the request, which it leaves as it is). */
export type RelayDecisionRow = Pick<
  RelayRow,
  'id' | 'runId' | 'sessionId' | 'status' | 'response' | 'reason' | 'decidedBy' | 'decidedAt' | 'expiresAt'
>;

export type ResolveRelayResult =
  /** `claimed`: the statement also claimed the call (`claim` was given, and it was approved and not claimed before). */
  | { ok: true; relay: RelayDecisionRow; claimed?: boolean }
  | { ok: false; reason: 'not_found'; current?: undefined }
  /** `current` is the recorded outcome: someone else's decision, or the expiry. */
  | { ok: false; reason: 'already_decided' | 'expired'; current: RelayRow }
  /** An approval of a relay that needs several approvers, which only their count approves (relay-quorum.ts): still pending. */
  | { ok: false; reason: 'needs_quorum'; current: RelayRow };

const decisionColumns = {
  id: relays.id,
  runId: relays.runId,
  sessionId: relays.sessionId,
  status: relays.status,
  response: relays.response,
  reason: relays.reason,
  decidedBy: relays.decidedBy,
  decidedAt: relays.decidedAt,
  expiresAt: relays.expiresAt,
};

const decisionRowOf = (raw: Record<string, unknown>) => rowOfColumns<RelayDecisionRow>(decisionColumns, raw);
const relayColumns = getTableColumns(relays);

const isPending = () => eq(relays.status, 'pending');
const notExpired = () => gt(relays.expiresAt, sql`now()`);
const expired = () => lte(relays.expiresAt, sql`now()`);

/** A human's decision as `resolveRelay` stores it (`response`: its JSON text, or null). */
interface DecisionValues extends Record<string, unknown> {
  id: string;
  status: 'approved' | 'denied';
  response: string | null;
  reason: string | null;
  decidedBy: string;
}
const DECISION_KEYS = ['id', 'status', 'response', 'reason', 'decidedBy'] as const;

/** The conditional UPDATE of a decision (pending and not due), returning the decision's columns. */
function settleDecision(db: Database, v: Slots<DecisionValues>) {
  return (
    db
      .update(relays)
      .set({
        status: sql`${v.status}`,
        response: sql`${v.response}::jsonb`,
        reason: sql`${v.reason}`,
        decidedBy: sql`${v.decidedBy}`,
        decidedAt: sql`now()`,
      })
      .where(
        and(
          sql`${relays.id} = ${v.id}`,
          isPending(),
          notExpired(),
          // A relay whose rule names approvers (one or several) is approved only by their count (relay-quorum.ts).
          sql`(${v.status} <> 'approved' OR ${relays.request}->'approvals' IS NULL)`,
        ),
      )
      // Not the request (a few KB of JSON): on the decision path, every statement counts.
      .returning(decisionColumns)
      .getSQL()
  );
}

// The statements of a human's decision, compiled once (prepared.ts): on the decision path.
const settleStatement = compiledStatement<DecisionValues>(DECISION_KEYS, settleDecision);
/**
 * An approval that claims its call in the same statement: inserted only if the UPDATE won (so at
 * most one approval ever claims), never over an earlier claim, and (several instances) only
 * under the lease.
 */
const settleAndClaim = (leased: boolean) =>
  compiledStatement<DecisionValues & { toolCallId: string; leaseOwner: string | null }>(
    [...DECISION_KEYS, 'toolCallId', 'leaseOwner'],
    (db, v) => sql`
      WITH settled AS (${settleDecision(db, v)}),
      claimed AS (
        INSERT INTO tool_executions (run_id, tool_call_id)
        SELECT run_id, ${v.toolCallId} FROM settled
        WHERE ${leased ? leaseHeldBy(sql`settled.run_id`, v.leaseOwner as string) : sql`true`}
        ON CONFLICT DO NOTHING
        RETURNING tool_call_id)
      SELECT settled.*, EXISTS (SELECT 1 FROM claimed) AS claimed FROM settled`,
  );
const settleAndClaimStatement = settleAndClaim(false);
const settleAndClaimLeasedStatement = settleAndClaim(true);

export function relayQueries(db: Database) {
  async function getRelay({ id }: { id: string }): Promise<RelayRow | undefined> {
    const [row] = await db.select().from(relays).where(eq(relays.id, id));
    return row;
  }

  /** Marks a pending relay whose deadline has passed as expired; undefined if it is not (or no longer) pending and due. */
  async function expireRelay({ id }: { id: string }): Promise<RelayRow | undefined> {
    const [row] = await db
      .update(relays)
      .set({ status: 'expired', reason: APPROVAL_TIMEOUT_REASON, decidedBy: 'system', decidedAt: sql`now()` })
      .where(and(eq(relays.id, id), isPending(), expired()))
      .returning();
    return row;
  }

  return {
    getRelay,
    expireRelay,

    /** The relay's session and its run's owner, in one statement; undefined for an unknown relay. */
    async getRelayAccess({ id }: { id: string }): Promise<RelayAccess | undefined> {
      const [row] = await db
        .select({ sessionId: relays.sessionId, runId: relays.runId, owner: runs.owner })
        .from(relays)
        .innerJoin(runs, eq(runs.id, relays.runId))
        .where(eq(relays.id, id));
      return row;
    },

    /**
     * With `leaseOwner` (several instances) the relay is stored only while that owner holds the
     * run's lease (its row is locked FOR SHARE meanwhile, so a takeover waits); else LeaseLostError.
     */
    async insertRelay({ request, leaseOwner }: { request: RelayRequest; leaseOwner?: string }): Promise<RelayRow> {
      if (leaseOwner !== undefined) {
        return db.transaction(async (tx) => {
          const held = await tx.execute(
            sql`SELECT 1 FROM run_leases WHERE run_id = ${request.runId} AND owner = ${leaseOwner} FOR SHARE`,
          );
          if (rowsOf(held).length === 0) throw await fenceFailure(tx, request.runId, leaseOwner);
          return relayQueries(tx).insertRelay({ request });
        });
      }
      const insert = db
        .insert(relays)
        .values({
          id: request.id,
          runId: request.runId,
          sessionId: request.sessionId,
          agentId: request.agentId,
          toolCallId: request.toolCallId,
          tool: request.tool,
          params: request.params,
          request,
          createdAt: new Date(request.createdAt),
          expiresAt: new Date(request.expiresAt),
        })
        .returning();
      // On the path from a tool call to its relay event: straight to the driver (prepared.ts).
      const [raw] = await directRows<Record<string, unknown>>(db, insert.getSQL());
      return rowOfColumns<RelayRow>(relayColumns, raw!);
    },

    /** Pending relays of outside agents' runs (hooks, MCP clients), whose callers hold a request open for them. */
    async listPendingOutsideRelays(): Promise<RelayRow[]> {
      return db
        .select(getTableColumns(relays))
        .from(relays)
        .innerJoin(runs, eq(runs.id, relays.runId))
        .where(and(isPending(), ne(runs.source, 'agent')))
        .orderBy(asc(relays.createdAt), asc(relays.id))
        .limit(1000);
    },

    /** The newest relay a call raised (an outside agent retrying the same call id finds it). */
    async getRelayOfCall({ runId, toolCallId }: { runId: string; toolCallId: string }): Promise<RelayRow | undefined> {
      const [row] = await db
        .select()
        .from(relays)
        .where(and(eq(relays.runId, runId), eq(relays.toolCallId, toolCallId)))
        .orderBy(desc(relays.createdAt))
        .limit(1);
      return row;
    },

    /** Pending relays whose deadline has not passed, oldest first. */
    async listPendingRelays({ runId, sessionId }: { runId?: string; sessionId?: string } = {}): Promise<RelayRow[]> {
      return db
        .select()
        .from(relays)
        .where(
          and(
            isPending(),
            notExpired(),
            runId ? eq(relays.runId, runId) : undefined,
            sessionId ? eq(relays.sessionId, sessionId) : undefined,
          ),
        )
        .orderBy(asc(relays.createdAt), asc(relays.id));
    },

    /**
     * Records a decision if the relay is still pending (and, for approve/deny, not past its
     * deadline). Exactly one caller gets `ok: true`; the others get the recorded row. A relay found
     * pending past its deadline is expired on the spot.
     */
    async resolveRelay({
      id,
      status,
      response,
      reason,
      decidedBy,
      claim,
    }: ResolveRelayInput): Promise<ResolveRelayResult> {
      if (status === 'cancelled') {
        const cancelled = await db
          .update(relays)
          .set({
            status,
            response: response ?? null,
            reason: reason ?? response?.reason ?? null,
            decidedBy,
            decidedAt: sql`now()`,
          })
          .where(and(eq(relays.id, id), isPending()))
          .returning(decisionColumns);
        if (cancelled[0]) return { ok: true, relay: cancelled[0] };
      } else {
        const values: DecisionValues = {
          id,
          status,
          response: response === undefined ? null : JSON.stringify(response),
          reason: reason ?? response?.reason ?? null,
          decidedBy,
        };
        if (claim && status === 'approved') {
          const statement = claim.leaseOwner === undefined ? settleAndClaimStatement : settleAndClaimLeasedStatement;
          const [raw] = await statement<Record<string, unknown>>(db, {
            ...values,
            toolCallId: claim.toolCallId,
            leaseOwner: claim.leaseOwner ?? null,
          });
          if (raw) return { ok: true, relay: decisionRowOf(raw), claimed: raw.claimed === true };
        } else {
          const [raw] = await settleStatement<Record<string, unknown>>(db, values);
          if (raw) return { ok: true, relay: decisionRowOf(raw) };
        }
      }
      const current = (await expireRelay({ id })) ?? (await getRelay({ id }));
      if (!current) return { ok: false, reason: 'not_found' };
      if (current.status === 'pending') return { ok: false, reason: 'needs_quorum', current };
      return { ok: false, reason: current.status === 'expired' ? 'expired' : 'already_decided', current };
    },

    /** Cancels every pending relay of a run; returns the cancelled rows. */
    async cancelRunRelays({
      runId,
      reason,
      decidedBy = 'system',
    }: {
      runId: string;
      reason?: string;
      decidedBy?: string;
    }): Promise<RelayRow[]> {
      return db
        .update(relays)
        .set({ status: 'cancelled', reason: reason ?? 'The run was stopped', decidedBy, decidedAt: sql`now()` })
        .where(and(eq(relays.runId, runId), isPending()))
        .returning();
    },

    /** Pending relays due at `now` (default: the caller's clock), for the expiry sweep after a restart. */
    async listExpiredPending({ now = new Date() }: { now?: Date } = {}): Promise<RelayRow[]> {
      return db
        .select()
        .from(relays)
        .where(and(isPending(), lte(relays.expiresAt, now)))
        .orderBy(asc(relays.expiresAt));
    },
  };
}

export type RelayQueries = ReturnType<typeof relayQueries>;

/** The broker's view of a row: the request, and the outcome once decided. */
export function toRelayRecord(row: RelayRow): RelayRecord {
  const outcome = toRelayOutcome(row);
  return outcome ? { request: row.request, outcome } : { request: row.request };
}

/** The recorded outcome; undefined while the relay is pending. */
export function toRelayOutcome(row: RelayDecisionRow): RelayOutcome | undefined {
  if (row.status === 'pending') return undefined;
  return {
    status: row.status,
    ...(row.response ? { response: row.response } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
    decidedBy: row.decidedBy ?? 'system',
    decidedAt: (row.decidedAt ?? row.expiresAt).getTime(),
  };
}
