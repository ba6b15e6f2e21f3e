// /approvals/<relayId>: one approval on a phone first. Pending: the call, what it can do, the
// time left, the parameters and why it asks, then large Approve / Deny buttons. Decided: what
// happened, by whom and when. Unknown or not the user's to decide: the API's 404 / 403, said plainly.
'use client';
import Link from 'next/link';
import { useState } from 'react';
import { ApprovalDetails } from '@/components/approvals/approval-details';
import { Notice } from '@/components/ui';
import { QuorumStatus } from '@/components/approvals/quorum-status';
import { shownRequest } from '@/lib/contract';
import { ApiError } from '@/lib/client/api';
import { useInboxRelay } from '@/lib/client/approvals';
import { DecisionForm } from './decision-form';
import { decidedText, RelaySummary } from './relay-summary';
// The dialog's styles for the parts reused here (facts, sections, headline).
import '@/components/approvals/approvals.css';
import './inbox.css';

export function ApprovalPageView({ relayId }: { relayId: string }) {
  const relay = useInboxRelay(relayId);
  const [result, setResult] = useState<string>();
  if (relay.isPending) return <p>Loading the approval…</p>;
  if (relay.error) {
    const status = relay.error instanceof ApiError ? relay.error.status : 0;
    return (
      <Notice tone="danger">
        {status === 404
          ? 'There is no such approval, or it is not yours to see.'
          : status === 403
            ? 'You may not decide this approval.'
            : `Could not load the approval: ${relay.error.message}`}{' '}
        <Link href="/approvals">All approvals</Link>
      </Notice>
    );
  }
  const data = relay.data;
  return (
    <div className="approval-page">
      <RelaySummary relay={data} />
      {result && <Notice tone="success">{result}</Notice>}
      {data.status === 'pending' && !result ? (
        <>
          <QuorumStatus relay={data.request} progress={data.progress} />
          <ApprovalDetails relay={shownRequest(data)} />
          <DecisionForm
            relay={data}
            onDecided={(outcome) => {
              setResult(
                outcome.kind === 'mine'
                  ? outcome.approved
                    ? 'Approved. The agent goes on.'
                    : 'Denied. The agent is told why.'
                  : outcome.text,
              );
              void relay.refetch();
            }}
          />
        </>
      ) : (
        !result && <Notice>{decidedText(data)}</Notice>
      )}
      {result && data.status !== 'pending' && <p>{decidedText(data)}</p>}
      <p>
        <Link href="/approvals">All pending approvals</Link>
      </p>
    </div>
  );
}
