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

/** What following the relay stream needs of an EventSource (a fake in tests). */
export interface ChangeSource {
  addEventListener(type: 'changed' | 'open' | 'error', listener: () => void): void;
  close(): void;
  readonly readyState: number;
}

/** EventSource.CLOSED: the source gave up and will not reconnect by itself. */
const CLOSED = 2;
/** The first wait before a new stream after one was refused, doubled up to RETRY_MAX_MS. */
export const RETRY_MS = 5_000;
export const RETRY_MAX_MS = 120_000;

/**
 * Follows GET /api/relays/stream: `onChange` on every announced change and on every (re)connect
 * (what was announced meanwhile is lost). EventSource reconnects by itself after a dropped
 * connection, but gives up after an HTTP error (a 429 past the user's stream cap, a 503 while the
 * server restarts): then a new one is opened after RETRY_MS, doubling up to RETRY_MAX_MS, until one
 * opens. Meanwhile the inbox's poll keeps it current. Returns the stop.
 */
export function followRelayChanges(
  open: () => ChangeSource,
  onChange: () => void,
  timers: { set: (fn: () => void, ms: number) => unknown; clear: (handle: unknown) => void } = {
    set: (fn, ms) => setTimeout(fn, ms),
    clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  },
): () => void {
  let source: ChangeSource | undefined;
  let retry: unknown;
  let delay = RETRY_MS;
  let stopped = false;
  const connect = () => {
    retry = undefined;
    const current = (source = open());
    current.addEventListener('changed', onChange);
    current.addEventListener('open', () => {
      delay = RETRY_MS;
      onChange();
    });
    current.addEventListener('error', () => {
      if (stopped || current !== source || current.readyState !== CLOSED || retry !== undefined) return;
      retry = timers.set(connect, delay);
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    });
  };
  connect();
  return () => {
    stopped = true;
    if (retry !== undefined) timers.clear(retry);
    source?.close();
  };
}

/** Re-reads the inbox whenever the server announces a change (followRelayChanges). */
function useRelayChanges(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    return followRelayChanges(
      () => new EventSource('/api/relays/stream'),
      () => void client.invalidateQueries({ queryKey: inboxKeys.all }),
    );
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
