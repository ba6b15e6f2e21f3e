// Run-level access on top of the role checks: a run someone may not see is a 404 (its existence is
// not revealed); a run they may see but not act on is a 403, checked before anything changes.
import { canDecideRelay, canSeeRun, ForbiddenError, type AuthUser } from '../../auth';
import type { Queries, RunRow } from '../../db';
import { AppError } from '../http/errors';

export async function visibleRun(q: Queries, user: AuthUser | undefined, id: string): Promise<RunRow> {
  const run = await q.runs.getRun({ id });
  if (!run || !canSeeRun(user, run)) throw new AppError('not_found:run', 404, 'No such run');
  return run;
}

/** Deciding its relays, cancelling it, switching its mode: the owner, an approver or an admin. */
export async function actionableRun(q: Queries, user: AuthUser | undefined, id: string): Promise<RunRow> {
  const run = await visibleRun(q, user, id);
  if (!canDecideRelay(user, run))
    throw new ForbiddenError('relays:decide:any', 'Only the run’s owner, an approver or an admin may act on this run');
  return run;
}

/**
 * Continuing a session is continuing its grants: only the user whose runs it holds (or an admin)
 * may start another run in it.
 */
export async function assertSessionUsable(q: Queries, user: AuthUser, sessionId: string): Promise<void> {
  if (user.role === 'admin') return;
  // The session is its first run's owner's, even after an admin has added a run to it.
  const first = await q.runs.sessionOwner({ sessionId });
  if (first && first.owner !== user.id)
    throw new ForbiddenError('runs:start', 'This session belongs to someone else; start a new one');
}
