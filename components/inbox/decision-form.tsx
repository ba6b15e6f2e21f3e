// The decision controls of the inbox and the approval page: Approve Once, Always Allow (when the
// grant would cover this very call, as in the dialog), Deny with a reason. The dialog's keys (Y,
// A, N; Enter in Reason denies) and its guard against accidental approvals (useArmed) apply.
'use client';
import { useState, type KeyboardEvent } from 'react';
import { Button, Notice } from '@/components/ui';
import { ReasonField } from '@/components/approvals/reason-field';
import { useArmed } from '@/components/approvals/use-armed';
import { ApiError } from '@/lib/client/api';
import { conflictNotice } from '@/lib/client/chat/relays';
import { useDecideInboxRelay } from '@/lib/client/approvals';
import type { InboxRelay, RelayResponse } from '@/lib/contract';

export type DecisionResult = { kind: 'mine'; approved: boolean } | { kind: 'elsewhere'; text: string };

export function DecisionForm({ relay, onDecided }: { relay: InboxRelay; onDecided: (result: DecisionResult) => void }) {
  const decide = useDecideInboxRelay();
  const [reason, setReason] = useState('');
  const { armed, isArmed, disarm } = useArmed();
  const covers = relay.request.alwaysAllow?.covers === true;

  const send = (response: RelayResponse) => {
    if (!isArmed() || decide.isPending) return;
    disarm();
    decide.mutate(
      { relay, response },
      {
        onSuccess: () => onDecided({ kind: 'mine', approved: response.approved }),
        onError: (error) => {
          if (error instanceof ApiError && (error.status === 409 || error.status === 404))
            onDecided({ kind: 'elsewhere', text: conflictNotice(error) });
        },
      },
    );
  };
  const approve = () => send({ approved: true });
  const always = () => covers && send({ approved: true, always: true });
  const deny = () => send({ approved: false, ...(reason.trim() ? { reason: reason.trim() } : {}) });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (event.ctrlKey || event.metaKey || event.altKey || target instanceof HTMLInputElement) return;
    const key = event.key.toLowerCase();
    const action = key === 'y' ? approve : key === 'a' ? always : key === 'n' ? deny : undefined;
    if (!action) return;
    event.preventDefault();
    action();
  };

  const blocked = decide.isPending || !armed;
  const failed =
    decide.error && !(decide.error instanceof ApiError && [404, 409].includes(decide.error.status))
      ? decide.error.message
      : undefined;
  return (
    <div className="inbox-decision" onKeyDown={onKeyDown} data-armed={String(armed && !decide.isPending)}>
      {failed && <Notice tone="danger">Could not send the decision: {failed}. Try again.</Notice>}
      <ReasonField value={reason} onChange={setReason} onDeny={deny} />
      <div className="inbox-decision__actions">
        <Button variant="primary" onClick={approve} disabled={blocked} aria-keyshortcuts="Y">
          Approve Once
        </Button>
        {covers && (
          <Button onClick={always} disabled={blocked} aria-keyshortcuts="A">
            Always Allow
          </Button>
        )}
        <Button variant="danger" onClick={deny} disabled={blocked} aria-keyshortcuts="N">
          Deny
        </Button>
      </div>
    </div>
  );
}
