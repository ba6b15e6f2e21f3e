// /runs: the agent runs the viewer may see (their own; approvers and admins everyone's) with their
// status; open one as its transcript, cancel a live one.
import type { Metadata } from 'next';
import { Suspense } from 'react';
import { RequireRole } from '@/app/_auth/require-role';
import { RunsView } from '@/components/runs/runs-view';

export const metadata: Metadata = { title: 'Runs' };

export default function RunsPage() {
  return (
    <RequireRole action="runs:read:own" pathname="/runs">
      <h1 className="page-title">Runs</h1>
      <p className="page-lead">
        Every agent run, newest first. Open one to read its transcript and answer its approvals.
      </p>
      <Suspense fallback={<p className="page-lead">Loading runs…</p>}>
        <RunsView />
      </Suspense>
    </RequireRole>
  );
}
