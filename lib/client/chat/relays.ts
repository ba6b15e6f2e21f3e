// Deciding a pending approval: POST /api/chat/relay/:id. The queue store learns the result: our
// decision leaves silently, a 409 (someone decided first) or 404 (gone) leaves with a notice,
// anything else keeps the relay so it can be answered again.
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../api';
import { outcomeNotice, useApprovalStore } from './approval-store';
import type { RelayApproval, RelayRequest, RelayResponse } from '@/lib/contract';

/** The answer: `pending` when the relay needs more approvers (it stays in the queue). */
export type RelayDecisionResult =
  { success: true } | { success: true; pending: true; approvals: RelayApproval[]; needed: number };

export function postRelayDecision(
  relay: Pick<RelayRequest, 'id' | 'sessionId'>,
  response: RelayResponse,
): Promise<RelayDecisionResult> {
  return apiFetch(`/api/chat/relay/${encodeURIComponent(relay.id)}`, {
    method: 'POST',
    json: { sessionId: relay.sessionId, response },
  });
}

/** The notice for a decision that lost the race, from the recorded outcome the 409 carries. */
export function conflictNotice(error: ApiError): string {
  const outcome = error.body.outcome as { status?: string; decidedBy?: string } | undefined;
  if (error.status === 404) return 'This approval is no longer available';
  return outcome?.status ? outcomeNotice(outcome.status, outcome.decidedBy ?? 'user') : 'Already decided elsewhere';
}

export function useDecideRelay() {
  return useMutation({
    mutationFn: ({ relay, response }: { relay: RelayRequest; response: RelayResponse }) =>
      postRelayDecision(relay, response),
    onMutate: ({ relay }) => useApprovalStore.getState().startSubmit(relay.id),
    onSuccess: (data, { relay }) => {
      const store = useApprovalStore.getState();
      if ('pending' in data) store.progressed(relay.id, { approvals: data.approvals, needed: data.needed });
      else store.decided(relay.id);
    },
    onError: (error, { relay }) => {
      const store = useApprovalStore.getState();
      // Refused but still pending (an edit a deny rule forbids, a second approval by the same
      // person): it stays, with the error shown, to be answered otherwise.
      if (error instanceof ApiError && error.status === 409 && !error.body.outcome) store.failed(relay.id);
      else if (error instanceof ApiError && (error.status === 409 || error.status === 404))
        store.decidedElsewhere(relay.id, conflictNotice(error));
      else store.failed(relay.id);
    },
  });
}
