// /approvals: every pending approval the user may decide, across runs and sources, oldest deadline
// first, updated live (polled). A relay decided elsewhere leaves with a notice of who decided it.
'use client';
import { useEffect, useRef, useState } from 'react';
import { Notice, Revealed } from '@/components/ui';
import { fetchInboxRelay, usePendingRelays } from '@/lib/client/approvals';
import { shownRequest, type InboxRelay } from '@/lib/contract';
import { headlineOf } from '@/lib/client/approval-headline';
import { InboxItem } from './inbox-item';
import { NotificationsControl } from './notifications-control';
import { decidedText } from './relay-summary';
// The dialog's styles for the parts reused here (facts, sections, headline).
import '@/components/approvals/approvals.css';
import './inbox.css';

const callOf = (relay: InboxRelay) => {
  const { tool, object } = headlineOf(shownRequest(relay));
  return object === undefined ? tool : `${tool} ${object}`;
};

export function InboxView() {
  const pending = usePendingRelays();
  const [notices, setNotices] = useState<{ id: string; text: string }[]>([]);
  const seen = useRef(new Map<string, InboxRelay>());
  const mine = useRef(new Set<string>());

  // Relays that left the list without our decision: say who decided them.
  useEffect(() => {
    const items = pending.data?.items;
    if (!items) return;
    const now = new Set(items.map((r) => r.request.id));
    for (const [id, relay] of seen.current) {
      if (now.has(id)) continue;
      seen.current.delete(id);
      if (mine.current.has(id)) continue;
      void fetchInboxRelay(id)
        .then((decided) => ({ id, text: `${callOf(relay)}: ${decidedText(decided)}` }))
        .catch(() => ({ id, text: `${callOf(relay)}: no longer pending` }))
        .then((notice) => setNotices((list) => [notice, ...list].slice(0, 5)));
    }
    for (const relay of items) seen.current.set(relay.request.id, relay);
  }, [pending.data]);

  const items = pending.data?.items ?? [];
  return (
    <div className="inbox">
      <NotificationsControl />
      {notices.map((n) => (
        <Notice key={n.id}>
          <Revealed text={n.text} />
        </Notice>
      ))}
      {pending.error && <Notice tone="danger">Could not load the approvals: {pending.error.message}</Notice>}
      <h2 className="inbox__count">{pending.isPending ? 'Loading…' : `${pending.data?.total ?? 0} pending`}</h2>
      {!pending.isPending && items.length === 0 && <p>Nothing waits for a decision.</p>}
      <ul className="inbox__list" aria-label="Pending approvals">
        {items.map((relay) => (
          <InboxItem
            key={relay.request.id}
            relay={relay}
            onDecided={(result) => {
              const id = relay.request.id;
              if (result.kind === 'mine') {
                mine.current.add(id);
                setNotices((list) =>
                  [{ id, text: `${callOf(relay)}: ${result.approved ? 'approved' : 'denied'} by you` }, ...list].slice(
                    0,
                    5,
                  ),
                );
              } else setNotices((list) => [{ id, text: `${callOf(relay)}: ${result.text}` }, ...list].slice(0, 5));
              mine.current.add(id);
              void pending.refetch();
            }}
          />
        ))}
      </ul>
    </div>
  );
}
