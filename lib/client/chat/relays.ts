// Deciding a pending approval: POST /api/chat/relay/:id. The queue store learns the result: our
// decision leaves silently, a 409 (someone decided first) or 404 (gone) leaves with a notice,
// anything else keeps the relay so it can be answered again.
import { useMutation } from '@tanstack/react-query';
import { ApiError, apiFetch } from '../api';
import { outcomeNotice, useApprovalStore } from './approval-store';
import type { RelayRequest, RelayResponse } from '@/lib/contract';

export function postRelayDecision(
  relay: Pick<RelayRequest, 'id' | 'sessionId'>,
  response: RelayResponse,
): Promise<{ success: true }> {
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
    onSuccess: (_data, { relay }) => useApprovalStore.getState().decided(relay.id),
    onError: (error, { relay }) => {
      const store = useApprovalStore.getState();
      if (error instanceof ApiError && (error.status === 409 || error.status === 404))
        store.decidedElsewhere(relay.id, conflictNotice(error));
      else store.failed(relay.id);
    },
  });
}
