// One run (GET /api/runs/:id), cancelling it and switching its mode. The run list and the admin
// views have their own modules; this one serves the chat.
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../api';
import type { Mode, RunDetail } from '@/lib/contract';

export const runKeys = {
  all: ['runs'] as const,
  detail: (id: string) => ['runs', 'detail', id] as const,
};

export function fetchRun(id: string): Promise<RunDetail> {
  return apiFetch<RunDetail>(`/api/runs/${encodeURIComponent(id)}`);
}

export function runQuery(id: string) {
  return queryOptions({ queryKey: runKeys.detail(id), queryFn: () => fetchRun(id), staleTime: 0 });
}

export function useCancelRun() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (runId: string) =>
      apiFetch<{ success: true }>(`/api/runs/${encodeURIComponent(runId)}/cancel`, { method: 'POST' }),
    onSettled: (_data, _error, runId) => client.invalidateQueries({ queryKey: runKeys.detail(runId) }),
  });
}

export function setRunMode(runId: string, mode: Mode): Promise<{ runId: string; mode: Mode }> {
  return apiFetch(`/api/runs/${encodeURIComponent(runId)}/mode`, { method: 'POST', json: { mode } });
}

export function useSetRunMode() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ runId, mode }: { runId: string; mode: Mode }) => setRunMode(runId, mode),
    onSettled: (_data, _error, { runId }) => client.invalidateQueries({ queryKey: runKeys.detail(runId) }),
  });
}

export interface ApproveAllResult {
  runId: string;
  mode: Mode;
  /** The relays approved now, and those left for their own decision (an ask rule). */
  approved: string[];
  left: string[];
}

/** "Approve this and all later calls": Auto-approve, and the run's pending calls it allows approved. */
export function approveAllPending(runId: string): Promise<ApproveAllResult> {
  return apiFetch(`/api/runs/${encodeURIComponent(runId)}/mode`, {
    method: 'POST',
    json: { mode: 'bypassPermissions', approvePending: true },
  });
}
