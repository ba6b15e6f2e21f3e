// The approvals inbox on the server: which relays a caller may decide, as the API shows them.
// Who may decide is the one rule (lib/auth canDecideRelay, as the decision route and the fast path
// check it); the owner filter below only keeps pages full for a caller who may decide their own.
import { can, canDecideRelay, type AuthUser } from '../../auth';
import type { InboxRelay, InboxPage, RelayStatus } from '../../contract';
import type { InboxRow, Queries } from '../../db';
import { actionableRun } from '../runs/run-access';
import { AppError } from '../http/errors';

export interface InboxQuery {
  status: RelayStatus;
  runId?: string;
  sessionId?: string;
  agentId?: string;
  tool?: string;
  risk?: string;
  limit: number;
  cursor?: string;
}

export function toInboxRelay(row: InboxRow, progress?: InboxRelay['progress']): InboxRelay {
  return {
    request: row.request,
    status: row.status,
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    reason: row.reason,
    ...(progress ? { progress } : {}),
  };
}

/**
 * The row with its approvals so far, when it is a pending relay whose rule names approvers: an
 * approver's edit is what the next approval approves, so the inbox must show it (one read each,
 * for those relays only).
 */
async function withProgress(q: Queries, row: InboxRow): Promise<InboxRelay> {
  if (row.status !== 'pending' || !row.request.approvals) return toInboxRelay(row);
  return toInboxRelay(row, await q.quorum.quorumOf({ id: row.request.id }));
}

export async function listInbox(q: Queries, me: AuthUser, query: InboxQuery): Promise<InboxPage> {
  const { limit, cursor, ...filters } = query;
  const scoped = can(me, 'relays:decide:any') ? filters : { ...filters, owner: me.id };
  const [page, total] = await Promise.all([
    q.inbox.listRelays({ ...scoped, limit, ...(cursor ? { cursor } : {}) }),
    q.inbox.countRelays(scoped),
  ]);
  return {
    items: await Promise.all(page.items.filter((row) => canDecideRelay(me, row)).map((row) => withProgress(q, row))),
    nextCursor: page.nextCursor ?? null,
    total,
  };
}

/** One relay for its approval page: 404 when unknown or its run is invisible, 403 when it may not be decided. */
export async function inboxRelay(q: Queries, me: AuthUser, id: string): Promise<InboxRelay> {
  const row = await q.inbox.getInboxRelay({ id });
  if (!row) throw new AppError('not_found:relay', 404, 'No such relay');
  try {
    await actionableRun(q, me, row.runId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw new AppError('not_found:relay', 404, 'No such relay');
    throw error;
  }
  return withProgress(q, row);
}
