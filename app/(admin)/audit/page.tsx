// /audit: every decision (who decided and why), policy edit and grant change, filterable. For
// approvers and admins; other roles get the "no access" page.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RequireRole } from '@/app/_auth/require-role';
import { AuditView } from '@/components/audit/audit-view';

export const metadata: Metadata = { title: 'Audit' };

export default function AuditPage() {
  return (
    <RequireRole action="audit:read" pathname="/audit">
      <h1 className="page-title">Audit</h1>
      <p className="page-lead">
        Every permission decision with who made it and why, plus policy edits and grant changes.
      </p>
      <Suspense fallback={<p className="page-lead">Loading the audit log…</p>}>
        <AuditView />
      </Suspense>
    </RequireRole>
  );
}
