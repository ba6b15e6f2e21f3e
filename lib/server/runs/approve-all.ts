// "Approve this and all later calls (Auto-approve)": the run switches to Auto-approve
// (bypassPermissions), then every pending relay of the run that Auto-approve allows (the relay's
// `autoApprove`, judged by the engine when it was raised) is approved as a human approval by the
// caller: stored, audited and announced like any other. An explicit ask rule (or what a tool
// itself found) still needs its own decision, and so does a relay raised by an older version.
import type { Queries } from '../../db';
import { toAppError } from '../http/errors';
import type { RunManager } from './run-manager';

export interface ApproveAllResult {
  /** The relays approved now. */
  approved: string[];
  /** The relays left pending: each needs its own decision. */
  left: string[];
}

export const APPROVE_ALL_REASON = 'Approved with all later calls (Auto-approve)';

/** The caller may decide the run's relays (checked by the route, as for one decision). */
export async function approveAllPending(
  runs: Pick<RunManager, 'setMode' | 'decideChecked'>,
  q: Queries,
  runId: string,
  decidedBy: string,
): Promise<ApproveAllResult> {
  // The mode first: from here on a call Auto-approve allows no longer asks, so none is missed below.
  await runs.setMode(runId, 'bypassPermissions');
  const result: ApproveAllResult = { approved: [], left: [] };
  for (const row of await q.relays.listPendingRelays({ runId })) {
    if (row.request.autoApprove !== true) {
      result.left.push(row.id);
      continue;
    }
    try {
      await runs.decideChecked(row.id, { approved: true, reason: APPROVE_ALL_REASON }, decidedBy);
      result.approved.push(row.id);
    } catch (error) {
      // Decided meanwhile (another tab, the deadline) or gone: nothing left to do for it, and the
      // rest of the queue still gets its approval. Recognised by code (the broker's own errors too).
      const status = toAppError(error).status;
      if (status !== 409 && status !== 404) throw error;
    }
  }
  return result;
}
