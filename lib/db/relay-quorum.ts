// Relays whose ask rule names approvers (`approvals`: one person or several, with roles). Each person's approval
// is counted by one statement: the tally row's upsert is row-locked and re-read at its latest
// version, so concurrent approvals on several instances each see the others' counts; the person's
// row has a unique key, so the same person twice fails the whole statement (nothing counted); and
// the approval that reaches the count settles the relay in that same statement, only while it is
// pending and before its deadline. An edit resets the tally (the editor's approval is the first).
import { asc, eq, sql } from 'drizzle-orm';
import type { RelayApproval, RelayResponse } from '../contract';
import type { Database } from './database';
import { rowsOf } from './statement';
import { relayApprovals, relayQuorums, type RelayRow } from './schema';

export interface QuorumApprovalInput {
  id: string;
  user: string;
  role: string;
  response: RelayResponse;
}

export type QuorumApprovalResult =
  /** Enough approvals: the relay is approved (its response carries the edited call, if any). */
  | { ok: true; approvals: RelayApproval[] }
  /** Counted; still pending. */
  | { ok: 'partial'; approvals: RelayApproval[]; needed: number; params?: Record<string, unknown> }
  /** Not counted: the person approved already, or the relay is no longer pending (or is due). */
  | { ok: false; reason: 'same_approver' | 'not_pending' };

const isUniqueViolation = (error: unknown): boolean => {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
};

export function relayQuorumQueries(db: Database) {
  async function approvalsOf({ id }: { id: string }): Promise<RelayApproval[]> {
    const rows = await db
      .select()
      .from(relayApprovals)
      .where(eq(relayApprovals.relayId, id))
      .orderBy(asc(relayApprovals.at), asc(relayApprovals.userId));
    return rows.map((row) => ({ by: row.userId, role: row.role, at: row.at.getTime() }));
  }

  /** One approval, counted and (when it is the last one needed) settling the relay, in one statement. */
  async function count(input: QuorumApprovalInput): Promise<QuorumApprovalResult> {
    const { params: _edit, ...response } = input.response;
    let raw: Record<string, unknown> | undefined;
    try {
      [raw] = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          WITH live AS (
            SELECT id, GREATEST(COALESCE((request->'approvals'->>'count')::int, 1), 1) AS needed
            FROM relays WHERE id = ${input.id} AND status = 'pending' AND expires_at > now()),
          tally AS (
            INSERT INTO relay_quorums (relay_id, approvals, needed)
            SELECT id, 1, needed FROM live
            ON CONFLICT (relay_id) DO UPDATE SET approvals = relay_quorums.approvals + 1
            RETURNING approvals, needed, params),
          voted AS (
            INSERT INTO relay_approvals (relay_id, user_id, role)
            SELECT ${input.id}, ${input.user}, ${input.role} FROM tally
            RETURNING user_id),
          settled AS (
            UPDATE relays SET
              status = 'approved',
              response = CASE WHEN t.params IS NULL THEN ${JSON.stringify(response)}::jsonb
                ELSE ${JSON.stringify(response)}::jsonb || jsonb_build_object('params', t.params) END,
              reason = ${response.reason ?? null},
              decided_by = ${input.user},
              decided_at = now()
            FROM tally t
            WHERE relays.id = ${input.id} AND relays.status = 'pending' AND relays.expires_at > now()
              AND t.approvals >= t.needed AND EXISTS (SELECT 1 FROM voted)
            RETURNING relays.id)
          SELECT t.approvals, t.needed, t.params, EXISTS (SELECT 1 FROM settled) AS settled FROM tally t`),
      );
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'same_approver' };
      throw error;
    }
    if (!raw) return { ok: false, reason: 'not_pending' };
    if (raw.settled === true) return { ok: true, approvals: await approvalsOf({ id: input.id }) };
    if (Number(raw.approvals) >= Number(raw.needed)) {
      // Counted after another approval settled the relay (its statement began first): not an approver of it.
      await db
        .delete(relayApprovals)
        .where(sql`${relayApprovals.relayId} = ${input.id} AND ${relayApprovals.userId} = ${input.user}`);
      return { ok: false, reason: 'not_pending' };
    }
    const params = parseJson(raw.params);
    const approvals = await approvalsOf({ id: input.id });
    return { ok: 'partial', approvals, needed: Number(raw.needed), ...(params ? { params } : {}) };
  }

  /**
   * An edited approval: the relay row is locked, the tally reset to this approval and the edited
   * call, the earlier approvals dropped. When one person is all the relay needs (a rule naming one
   * approver's roles), it is that approval, and the relay is approved with the edited call.
   */
  async function edit(input: QuorumApprovalInput & { params: Record<string, unknown> }): Promise<QuorumApprovalResult> {
    const { params: _edit, ...response } = input.response;
    const result = await db.transaction(async (tx) => {
      const [live] = rowsOf<{ needed: number }>(
        await tx.execute(sql`
          SELECT GREATEST(COALESCE((request->'approvals'->>'count')::int, 1), 1) AS needed FROM relays
          WHERE id = ${input.id} AND status = 'pending' AND expires_at > now() FOR UPDATE`),
      );
      if (!live) return undefined;
      const needed = Number(live.needed);
      const paramsJson = JSON.stringify(input.params);
      await tx.execute(sql`
        INSERT INTO relay_quorums (relay_id, approvals, needed, params)
        VALUES (${input.id}, 1, ${needed}, ${paramsJson}::jsonb)
        ON CONFLICT (relay_id) DO UPDATE SET approvals = 1, params = EXCLUDED.params`);
      await tx.delete(relayApprovals).where(eq(relayApprovals.relayId, input.id));
      await tx.insert(relayApprovals).values({ relayId: input.id, userId: input.user, role: input.role });
      if (needed <= 1)
        await tx.execute(sql`
          UPDATE relays SET
            status = 'approved',
            response = ${JSON.stringify({ ...response, params: input.params })}::jsonb,
            reason = ${response.reason ?? null},
            decided_by = ${input.user},
            decided_at = now()
          WHERE id = ${input.id}`);
      return needed;
    });
    if (result === undefined) return { ok: false, reason: 'not_pending' };
    const approvals = await approvalsOf({ id: input.id });
    if (result <= 1) return { ok: true, approvals };
    return { ok: 'partial', approvals, needed: result, params: input.params };
  }

  return {
    approvalsOf,
    countQuorumApproval: count,
    editQuorumApproval: edit,

    /** The tally of a pending relay that needs several approvers; undefined before its first approval. */
    async quorumOf({ id }: { id: string }) {
      const [row] = await db.select().from(relayQuorums).where(eq(relayQuorums.relayId, id));
      if (!row) return undefined;
      return {
        approvals: await approvalsOf({ id }),
        needed: row.needed,
        ...(row.params ? { params: row.params as Record<string, unknown> } : {}),
      };
    },
  };
}

export type RelayQuorumQueries = ReturnType<typeof relayQuorumQueries>;

/** Whether a stored relay is approved only by named people, counted (its rule's `approvals`, one or several). */
export const needsQuorum = (row: Pick<RelayRow, 'request'>) => row.request.approvals !== undefined;

function parseJson(value: unknown): Record<string, unknown> | undefined {
  if (value === null || value === undefined) return undefined;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
}
