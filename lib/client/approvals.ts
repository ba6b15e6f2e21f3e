// The approvals inbox as server state: the pending relays the user may decide (re-read whenever
// GET /api/relays/stream says the relays changed, so a relay raised anywhere appears without a
// reload; a slow poll stays as a safety net), the pending count for the header, one relay for its
// approval page, and a decision through the same POST as the chat dialog's.
'use client';
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InboxPage, InboxRelay, RelayResponse } from '@/lib/contract';
import { apiFetch } from './api';
import { postRelayDecision } from './chat/relays';

/** How often the inbox and the header count look again if no change was announced (a lost stream, say). */
export const INBOX_POLL_MS = 15_000;

export const inboxKeys = {
  all: ['inbox'] as const,
  pending: () => ['inbox', 'pending'] as const,
  relay: (id: string) => ['inbox', 'relay', id] as const,
};

export const fetchPending = () => apiFetch<InboxPage>('/api/relays?status=pending&limit=200', { cache: 'no-store' });

export const fetchInboxRelay = (id: string) =>
  apiFetch<InboxRelay>(`/api/relays/${encodeURIComponent(id)}`, { cache: 'no-store' });

/** Re-reads the inbox whenever the server announces a change (EventSource reconnects by itself). */
function useRelayChanges(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/relays/stream');
    const reread = () => void client.invalidateQueries({ queryKey: inboxKeys.all });
    source.addEventListener('changed', reread);
    // After a reconnect, what was announced meanwhile is lost: read again.
    source.addEventListener('open', reread);
    return () => source.close();
  }, [client, enabled]);
}

export function usePendingRelays(enabled = true) {
  useRelayChanges(enabled);
  return useQuery({
    queryKey: inboxKeys.pending(),
    queryFn: fetchPending,
    refetchInterval: INBOX_POLL_MS,
    // Keep counting in a hidden tab: that is when a notification matters.
    refetchIntervalInBackground: true,
    enabled,
  });
}

export function useInboxRelay(id: string) {
  return useQuery({ queryKey: inboxKeys.relay(id), queryFn: () => fetchInboxRelay(id), retry: false });
}

export function useDecideInboxRelay() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ relay, response }: { relay: InboxRelay; response: RelayResponse }) =>
      postRelayDecision(relay.request, response),
    // Not awaited: the refetch would settle the relay on screen (unmounting the form) before the
    // caller's own onSuccess had said what happened.
    onSettled: () => void client.invalidateQueries({ queryKey: inboxKeys.all }),
  });
}

/** "(3) Rules · Gatehouse": the pending count in front of whatever title the page has. */
export function titleWithCount(title: string, count: number): string {
  const bare = title.replace(/^\(\d+\+?\) /, '');
  return count > 0 ? `(${count > 99 ? '99+' : count}) ${bare}` : bare;
}
