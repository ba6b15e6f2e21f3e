// "Approve this and all later calls (Auto-approve)", confirmed first: the confirmation says how
// many pending calls of the run it approves and which still need their own decision (an ask rule
// asks even in Auto-approve). The server switches the run and approves them, each as this user's
// decision (POST /api/runs/:id/mode with approvePending).
'use client';
import { useEffect, useRef, useState } from 'react';
import { Button, Notice } from '@/components/ui';
import { useApprovalStore } from '@/lib/client/chat/approval-store';
import { approveAllPending } from '@/lib/client/chat/run';
import { useChatSettings } from '@/lib/client/chat/settings-store';
import type { RelayRequest } from '@/lib/contract';

export const APPROVE_ALL_LABEL = 'Approve this and all later calls (Auto-approve)';

const calls = (n: number) => (n === 1 ? '1 call' : `${n} calls`);

export function ApproveAllConfirm({ relay, onBack }: { relay: RelayRequest; onBack: () => void }) {
  const queue = useApprovalStore((s) => s.queue);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const group = useRef<HTMLDivElement>(null);
  const ofRun = queue.filter((r) => r.runId === relay.runId);
  const approvable = ofRun.filter((r) => r.autoApprove === true);
  const left = ofRun.length - approvable.length;
  // Focus starts on the way back, never on the approving button.
  useEffect(() => group.current?.querySelector<HTMLButtonElement>('button')?.focus(), []);

  const confirm = async () => {
    const store = useApprovalStore.getState();
    const ids = approvable.map((r) => r.id).filter((id) => !store.submitting[id]);
    ids.forEach((id) => store.startSubmit(id));
    setBusy(true);
    setError(undefined);
    try {
      const result = await approveAllPending(relay.runId);
      useChatSettings.getState().setMode('bypassPermissions');
      const approved = new Set(result.approved);
      for (const id of ids)
        (approved.has(id) ? useApprovalStore.getState().decided : useApprovalStore.getState().failed)(id);
    } catch (failure) {
      ids.forEach((id) => useApprovalStore.getState().failed(id));
      setError((failure as Error).message);
      setBusy(false);
    }
  };

  return (
    <div ref={group} className="approve-all-confirm" role="group" aria-labelledby="approve-all-question">
      <p id="approve-all-question">
        <strong>{`Approve ${calls(approvable.length)} waiting in this run and switch it to Auto-approve?`}</strong>{' '}
        Later calls then run without asking, except those an ask rule asks about.
        {left > 0
          ? ` ${calls(left)} under an ask rule still ${left === 1 ? 'needs its' : 'need their'} own decision.`
          : ' Calls under an ask rule would still need their own decision.'}
      </p>
      {error && <Notice tone="danger">Could not approve them: {error}</Notice>}
      <div className="approval-actions">
        <Button onClick={onBack} disabled={busy}>
          Back
        </Button>
        <Button variant="primary" onClick={() => void confirm()} disabled={busy || approvable.length === 0}>
          {`Approve ${calls(approvable.length)} and switch to Auto-approve`}
        </Button>
      </div>
    </div>
  );
}
