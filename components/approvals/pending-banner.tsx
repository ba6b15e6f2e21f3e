// The approval dialog closed without deciding (Escape): the calls still wait, and this says so,
// with a way back to them.
'use client';
import { Button } from '@/components/ui';
import { useApprovalStore } from '@/lib/client/chat/approval-store';

export function PendingBanner({ count }: { count: number }) {
  const reopen = useApprovalStore((s) => s.reopen);
  return (
    <div className="approval-pending-banner" role="status" aria-label="Pending approvals">
      <span>{count === 1 ? '1 call waits for your decision.' : `${count} calls wait for your decision.`}</span>
      <Button size="sm" variant="primary" onClick={reopen}>
        Review
      </Button>
    </div>
  );
}
