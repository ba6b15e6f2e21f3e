// /approvals/<relayId>: one approval, laid out for a phone; every notification and webhook links here.
import type { Metadata } from 'next';
import { RequireRole } from '@/app/_auth/require-role';
import { ApprovalPageView } from '@/components/inbox/approval-page-view';

export const metadata: Metadata = { title: 'Approval' };

export default async function ApprovalPage({ params }: { params: Promise<{ relayId: string }> }) {
  const { relayId } = await params;
  return (
    <RequireRole action="relays:decide:own" pathname={`/approvals/${encodeURIComponent(relayId)}`}>
      <h1 className="page-title">Approval</h1>
      <ApprovalPageView relayId={relayId} />
    </RequireRole>
  );
}
