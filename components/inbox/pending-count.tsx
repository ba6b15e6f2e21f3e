// The header's count of pending approvals (on every page), the same count in the tab title, and
// the notification for each new approval while the tab is hidden (when the user turned them on).
'use client';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { titleWithCount, usePendingRelays } from '@/lib/client/approvals';
import { notificationsWanted, notifyRelay, support } from '@/lib/client/notifications';

export function PendingCount() {
  const pending = usePendingRelays();
  const pathname = usePathname();
  const router = useRouter();
  const known = useRef<Set<string>>(undefined);
  const total = pending.data?.total ?? 0;

  useEffect(() => {
    // After Next has set the page's own title.
    const timer = setTimeout(() => (document.title = titleWithCount(document.title, total)), 0);
    return () => clearTimeout(timer);
  }, [total, pathname]);

  useEffect(() => {
    const items = pending.data?.items;
    if (!items) return;
    const first = known.current === undefined;
    const before = known.current ?? new Set<string>();
    known.current = new Set(items.map((r) => r.request.id));
    // The first answer is what was already there; only later arrivals notify.
    if (first || !document.hidden || support() !== 'granted' || !notificationsWanted()) return;
    for (const relay of items) if (!before.has(relay.request.id)) notifyRelay(relay, (href) => router.push(href));
  }, [pending.data, router]);

  if (total === 0) return null;
  return (
    <span className="app-header__count">
      {total > 99 ? '99+' : total}
      <span className="ui-visually-hidden"> pending</span>
    </span>
  );
}
