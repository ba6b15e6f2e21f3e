// The runs list as server state: query keys, the page fetcher, the list hook (polls only while a
// run on screen is live) and the cancel mutation. The chat's own run lives in lib/client/chat/.
import {
  useInfiniteQuery,
  useMutation,
  useMutationState,
  useQueryClient,
  type InfiniteData,
} from '@tanstack/react-query';
import { useState } from 'react';
import {
  isLiveStatus,
  RUN_STATUS_LABELS,
  RUN_STATUSES,
  type Page,
  type RunSource,
  type RunStatus,
  type RunSummary,
} from '@/lib/contract';
import { apiFetch } from './api';

export type RunsPage = Page<RunSummary>;

export interface RunsFilter {
  status?: RunStatus;
  /** `hook`: the sessions of outside agents such as Claude Code (the Connect page). */
  source?: RunSource;
  limit?: number;
}

/** How often the list refreshes while a run on screen is still running or waiting. */
export const LIVE_REFRESH_MS = 3_000;

export const runsListKeys = {
  all: ['runs-list'] as const,
  list: (filter: RunsFilter) => ['runs-list', filter] as const,
  cancel: ['runs-list', 'cancel'] as const,
};

/** The words a status is shown with (also the Badge's tone key). */
export function runStatusLabel(status: RunStatus): string {
  return RUN_STATUS_LABELS[status] ?? status;
}

export function parseRunStatus(value: string | null | undefined): RunStatus | undefined {
  return (RUN_STATUSES as readonly string[]).includes(value ?? '') ? (value as RunStatus) : undefined;
}

/** A page size from the URL, when the API would accept it (1 to 200). */
export function parseLimit(value: string | null | undefined): number | undefined {
  const limit = Number(value);
  return Number.isInteger(limit) && limit >= 1 && limit <= 200 ? limit : undefined;
}

export function runsUrl(filter: RunsFilter, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.source) params.set('source', filter.source);
  if (filter.limit) params.set('limit', String(filter.limit));
  if (cursor) params.set('cursor', cursor);
  const query = params.toString();
  return query ? `/api/runs?${query}` : '/api/runs';
}

export function fetchRunsPage(filter: RunsFilter, cursor?: string | null): Promise<RunsPage> {
  return apiFetch<RunsPage>(runsUrl(filter, cursor));
}

/** True when any loaded run is still running or waiting: the list then keeps refreshing. */
export function hasLiveRun(data: InfiniteData<RunsPage> | undefined): boolean {
  return Boolean(data?.pages.some((page) => page.items.some((run) => isLiveStatus(run.status))));
}

export function useRunsList(filter: RunsFilter) {
  return useInfiniteQuery({
    queryKey: runsListKeys.list(filter),
    queryFn: ({ pageParam }) => fetchRunsPage(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchInterval: (query) => (hasLiveRun(query.state.data) ? LIVE_REFRESH_MS : false),
  });
}

export function useCancelRun() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: runsListKeys.cancel,
    mutationFn: (runId: string) =>
      apiFetch<{ success: true }>(`/api/runs/${encodeURIComponent(runId)}/cancel`, { method: 'POST' }),
    onSettled: () => client.invalidateQueries({ queryKey: runsListKeys.all }),
  });
}

/**
 * The run cancelled last from this page since it mounted (undefined before that), to announce it
 * and move focus: its Cancel button is gone by the time the cancel settles (the list has refetched).
 */
export function useRecentlyCancelledRunId(): string | undefined {
  const ids = useMutationState({
    filters: { mutationKey: runsListKeys.cancel, status: 'success' },
    select: (m) => m.state.variables as string,
  });
  const latest = ids.at(-1);
  const [atMount] = useState(latest);
  return latest !== atMount ? latest : undefined;
}
