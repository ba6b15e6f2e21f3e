// A call whose rule names approvers: how many so far and who ("1 of 2 approvals: alice"), or
// what it needs before the first (for one person: which roles); and, when an approver edited the
// call, that the approvals are of the edited call.
'use client';
import { Revealed } from '@/components/ui';
import type { RelayProgress, RelayRequest } from '@/lib/contract';
import { approverRoles } from '@/lib/policy/approvals';

export function QuorumStatus({ relay, progress, me }: { relay: RelayRequest; progress?: RelayProgress; me?: string }) {
  if (!relay.approvals) return null;
  const needed = relay.approvals.count;
  const roles = approverRoles(relay.approvals);
  if (roles.length === 0)
    return (
      <section className="approval-section approval-quorum" aria-label="Approvals">
        <p className="approval-quorum__hint">
          Nobody may approve this call: the rules of its parts name approver roles with none in common. You may deny it.
        </p>
      </section>
    );
  if (needed <= 1)
    return (
      <section className="approval-section approval-quorum" aria-label="Approvals">
        <p className="approval-quorum__hint">{`Needs the approval of one person (${roles.join(' or ')}).`}</p>
      </section>
    );
  const approvals = progress?.approvals ?? [];
  const mine = me !== undefined && approvals.some((a) => a.by === me);
  return (
    <section className="approval-section approval-quorum" aria-label="Approvals">
      <p role="status" className="approval-quorum__count">
        {`${approvals.length} of ${needed} approvals`}
        {approvals.length > 0 && (
          <>
            {': '}
            <Revealed text={approvals.map((a) => a.by).join(', ')} />
          </>
        )}
      </p>
      <p className="approval-quorum__hint">
        {mine
          ? 'You approved this call; it runs once another person approves it. You may still deny it.'
          : `Needs ${needed} approvals from different people (${roles.join(' or ')}); one denial denies it.`}
      </p>
      {progress?.params && (
        <p className="approval-quorum__hint">An approver edited the call: the approvals are of the edited call.</p>
      )}
    </section>
  );
}
