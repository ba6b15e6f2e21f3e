// The short notice when an approval leaves the queue because it was decided elsewhere ("Approved
// elsewhere by alice", "Timed out", "Covered by an Always Allow rule"). It clears itself after a while.
'use client';
import { useEffect } from 'react';
import { Button, Notice, Revealed } from '@/components/ui';
import { useApprovalStore } from '@/lib/client/chat/approval-store';

const VISIBLE_MS = 10_000;

export function QueueNotice() {
  const notice = useApprovalStore((s) => s.notice);
  const dismiss = useApprovalStore((s) => s.dismissNotice);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => {
      if (useApprovalStore.getState().notice?.id === notice.id) dismiss();
    }, VISIBLE_MS);
    return () => clearTimeout(timer);
  }, [notice, dismiss]);
  if (!notice) return null;
  return (
    <Notice tone="info" className="queue-notice">
      <span>
        <Revealed text={notice.text} />
      </span>
      <Button size="sm" variant="ghost" onClick={dismiss}>
        Dismiss
      </Button>
    </Notice>
  );
}

/** On the page, only while the dialog is closed (the dialog shows it itself when open). */
export function QueueNoticeBanner() {
  const open = useApprovalStore((s) => s.queue.length > 0 && !s.dismissed);
  return open ? null : <QueueNotice />;
}
