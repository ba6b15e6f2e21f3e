// One pending approval in the inbox: its summary and time left; expanded, the dialog's details
// (call, why it asks, diff, suggested rule) and the decision controls.
'use client';
import Link from 'next/link';
import { useId, useState } from 'react';
import { ApprovalDetails } from '@/components/approvals/approval-details';
import { Button, JsonView } from '@/components/ui';
import { QuorumStatus } from '@/components/approvals/quorum-status';
import { shownRequest, type InboxRelay } from '@/lib/contract';
import { DecisionForm, type DecisionResult } from './decision-form';
import { RelaySummary } from './relay-summary';

export function InboxItem({ relay, onDecided }: { relay: InboxRelay; onDecided: (result: DecisionResult) => void }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const { request } = relay;
  return (
    <li className="inbox-item" data-relay={request.id}>
      <div className="inbox-item__head">
        <RelaySummary relay={relay} />
        <span className="inbox-item__time">
          Decide by <time dateTime={relay.expiresAt}>{new Date(relay.expiresAt).toLocaleTimeString()}</time>
        </span>
        <Button size="sm" aria-expanded={open} aria-controls={panel} onClick={() => setOpen(!open)}>
          {open ? 'Hide details' : 'Details and decision'}
        </Button>
      </div>
      {open && (
        <div id={panel} className="inbox-item__body">
          <QuorumStatus relay={request} progress={relay.progress} />
          <ApprovalDetails relay={shownRequest(relay)} />
          {request.suggestedRules.length > 0 && (
            <section className="approval-section">
              <h3 className="approval-section__title">Suggested rule (Always Allow)</h3>
              <JsonView value={request.suggestedRules} label="Suggested rule" limit={400} />
            </section>
          )}
          <DecisionForm relay={relay} onDecided={onDecided} />
          <Link href={`/approvals/${encodeURIComponent(request.id)}`}>Open its own page</Link>
        </div>
      )}
    </li>
  );
}
