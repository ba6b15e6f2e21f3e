// /approvals: every pending approval the user may decide, live; admins also manage webhooks here.
import type { Metadata } from 'next';
import { RequireRole } from '@/app/_auth/require-role';
import { currentPageUser } from '@/app/_auth/page-auth';
import { InboxView } from '@/components/inbox/inbox-view';
import { WebhooksPanel } from '@/components/webhooks/webhooks-panel';
import { can } from '@/lib/auth';

export const metadata: Metadata = { title: 'Approvals' };

export default async function ApprovalsPage() {
  const user = await currentPageUser();
  return (
    <RequireRole action="relays:decide:own" pathname="/approvals">
      <h1 className="page-title">Approvals</h1>
      <p className="page-lead">Every call waiting for a decision you may make, from any run, oldest deadline first.</p>
      <InboxView />
      {can(user, 'webhooks:manage') && <WebhooksPanel />}
    </RequireRole>
  );
}
