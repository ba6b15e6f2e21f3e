// A call that needs several approvers: how many so far and who ("1 of 2 approvals: alice"), or
// what it needs before the first; and, when an approver edited the call, that the approvals are
// of the edited call.
'use client';
import { Revealed } from '@/components/ui';
import type { RelayProgress, RelayRequest } from '@/lib/contract';
import { DEFAULT_APPROVER_ROLES } from '@/lib/policy/approvals';

export function QuorumStatus({ relay, progress, me }: { relay: RelayRequest; progress?: RelayProgress; me?: string }) {
  const needed = relay.approvals?.count ?? 1;
  if (needed <= 1) return null;
  const roles = relay.approvals?.roles ?? DEFAULT_APPROVER_ROLES;
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
