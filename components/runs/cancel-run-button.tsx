// Cancel for a live run, behind a confirmation: cancelling turns its pending approvals into
// denials and cannot be undone. (This button disappears once the list shows the run cancelled;
// RunsView then moves focus to the run's title.)
'use client';
import { useState } from 'react';
import { Button, Dialog, Notice } from '@/components/ui';
import { useCancelRun } from '@/lib/client/runs-list';

export function CancelRunButton({ runId, title }: { runId: string; title: string }) {
  const [confirming, setConfirming] = useState(false);
  const cancel = useCancelRun();

  const close = () => {
    setConfirming(false);
    cancel.reset();
  };
  const confirm = () => cancel.mutate(runId, { onSuccess: () => setConfirming(false) });

  return (
    <>
      <Button
        size="sm"
        variant="danger"
        aria-label={`Cancel run ${title}`}
        onClick={() => setConfirming(true)}
        disabled={cancel.isPending}
      >
        Cancel
      </Button>
      <Dialog
        open={confirming}
        title="Cancel this run?"
        description="The run stops now and its pending approvals become denials. This cannot be undone."
        onCancel={close}
        footer={
          <>
            <Button onClick={close}>Keep running</Button>
            <Button variant="danger" disabled={cancel.isPending} onClick={confirm}>
              {cancel.isPending ? 'Cancelling…' : 'Cancel run'}
            </Button>
          </>
        }
      >
        <p className="runs-dialog__title">{title}</p>
        {cancel.error && <Notice tone="danger">Could not cancel the run: {cancel.error.message}</Notice>}
      </Dialog>
    </>
  );
}
