// Conversations as server state: the list the chat offers to reopen (GET /api/sessions, own
// sessions, newest activity first) and one session with all its turns (GET /api/sessions/:id).
// Which conversation is current in this tab is remembered in sessionStorage, so leaving the chat
// for another page and coming back (through the header's link to `/`) reopens it.
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../api';
import type { Page, SessionDetail, SessionSummary } from '@/lib/contract';

export const sessionKeys = {
  all: ['sessions'] as const,
  list: ['sessions', 'list'] as const,
  detail: (id: string) => ['sessions', 'detail', id] as const,
};

export function fetchSession(sessionId: string): Promise<SessionDetail> {
  return apiFetch<SessionDetail>(`/api/sessions/${encodeURIComponent(sessionId)}`);
}

export function useSessions() {
  return useInfiniteQuery({
    queryKey: sessionKeys.list,
    queryFn: ({ pageParam }) =>
      apiFetch<Page<SessionSummary>>(
        `/api/sessions?limit=20${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

const CURRENT_KEY = 'gatehouse.chat.run';

/** The run this tab's chat showed last (null after New chat). Storage may be unavailable: then nothing is remembered. */
export const currentRunMemory = {
  get(): string | null {
    try {
      return window.sessionStorage.getItem(CURRENT_KEY);
    } catch {
      return null;
    }
  },
  set(runId: string | null): void {
    try {
      if (runId) window.sessionStorage.setItem(CURRENT_KEY, runId);
      else window.sessionStorage.removeItem(CURRENT_KEY);
    } catch {
      // Private mode or storage disabled: the URL still names the run.
    }
  },
};
