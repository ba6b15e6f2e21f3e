// The approval queue (UI state): pending relays oldest first, the ones this tab is answering,
// and the short notice shown when one leaves the queue because it was decided elsewhere (another
// tab, the deadline, a grant). Relays arrive and leave through the run's events; the server
// stays the only judge of what is pending.
import { create } from 'zustand';
import type { RelayOutcomeStatus, RelayProgress, RelayRequest } from '@/lib/contract';

export interface QueueNotice {
  id: number;
  text: string;
}

interface ApprovalState {
  queue: RelayRequest[];
  /** Relays this tab has posted a decision for and not yet heard back about. */
  submitting: Record<string, true>;
  notice?: QueueNotice;
  /** The dialog was closed without deciding (Escape): the calls stay pending, a banner reopens it. */
  dismissed: boolean;
  /** Relays that need several approvers: who approved so far (their `relay_progress`, or our own partial approval). */
  progress: Record<string, RelayProgress>;
  add(relay: RelayRequest): void;
  /** An approval counted toward a relay's quorum; it stays pending (and in the queue). */
  progressed(relayId: string, progress: RelayProgress): void;
  dismiss(): void;
  reopen(): void;
  /** A `relay_resolved` event. `live` is false while replaying history (no notice then). */
  resolved(relayId: string, outcome: { status: RelayOutcomeStatus; decidedBy: string }, live: boolean): void;
  startSubmit(relayId: string): void;
  /** This tab's decision was recorded: the relay leaves without a notice. */
  decided(relayId: string): void;
  /** Someone else decided first (409) or the relay is gone (404): it leaves with a notice. */
  decidedElsewhere(relayId: string, text: string): void;
  /** The POST failed for another reason: the relay stays, to be answered again. */
  failed(relayId: string): void;
  dismissNotice(): void;
  reset(): void;
}

let noticeId = 0;

export const useApprovalStore = create<ApprovalState>()((set) => ({
  queue: [],
  submitting: {},
  dismissed: false,
  progress: {},
  progressed: (relayId, progress) =>
    set((s) => ({ progress: { ...s.progress, [relayId]: progress }, submitting: without(s.submitting, relayId) })),
  // A new call opens the dialog again, even after it was closed without deciding.
  add: (relay) =>
    set((s) =>
      s.queue.some((r) => r.id === relay.id)
        ? s
        : { queue: [...s.queue, relay].sort((a, b) => a.createdAt - b.createdAt), dismissed: false },
    ),
  dismiss: () => set({ dismissed: true }),
  reopen: () => set({ dismissed: false }),
  resolved: (relayId, outcome, live) =>
    set((s) => {
      if (!s.queue.some((r) => r.id === relayId)) return s;
      const queue = s.queue.filter((r) => r.id !== relayId);
      // Our own answer (its POST still in flight) needs no notice; the POST's result settles it.
      if (s.submitting[relayId] || !live) return { queue };
      return { queue, notice: { id: ++noticeId, text: outcomeNotice(outcome.status, outcome.decidedBy) } };
    }),
  startSubmit: (relayId) => set((s) => ({ submitting: { ...s.submitting, [relayId]: true } })),
  decided: (relayId) =>
    set((s) => ({ queue: s.queue.filter((r) => r.id !== relayId), submitting: without(s.submitting, relayId) })),
  decidedElsewhere: (relayId, text) =>
    set((s) => ({
      queue: s.queue.filter((r) => r.id !== relayId),
      submitting: without(s.submitting, relayId),
      notice: { id: ++noticeId, text },
    })),
  failed: (relayId) => set((s) => ({ submitting: without(s.submitting, relayId) })),
  dismissNotice: () => set({ notice: undefined }),
  reset: () => set({ queue: [], submitting: {}, notice: undefined, dismissed: false, progress: {} }),
}));

/** The short notice for a relay decided somewhere else. */
export function outcomeNotice(status: string, decidedBy: string): string {
  // A person's decision names them: the same user in another tab, or an approver somewhere else.
  const by = decidedBy && !['user', 'system', 'grant'].includes(decidedBy) ? ` by ${decidedBy}` : '';
  if (status === 'approved')
    return decidedBy === 'grant' ? 'Covered by an Always Allow rule' : `Approved elsewhere${by}`;
  if (status === 'denied') return `Denied elsewhere${by}`;
  if (status === 'expired') return 'Timed out';
  if (status === 'cancelled') return 'Cancelled: the run was stopped';
  return `Decided elsewhere (${status})`;
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _gone, ...rest } = record;
  return rest;
}
