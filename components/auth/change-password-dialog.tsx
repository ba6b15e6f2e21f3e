// Change your own password: the current one and the new one. This session stays signed in; the
// others end (the server does both). Refusals show under their field and the typed values stay.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Dialog, Notice, TextField } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { useChangeOwnPassword } from '@/lib/client/auth';

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: (changed: boolean) => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const change = useChangeOwnPassword();
  const error = change.error instanceof ApiError ? change.error : undefined;
  const currentError = error?.fieldMessage('currentPassword');
  const nextError = error?.fieldMessage('password');

  function close(changed: boolean) {
    setCurrent('');
    setNext('');
    change.reset();
    onClose(changed);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    change.mutate({ currentPassword: current, password: next }, { onSuccess: () => close(true) });
  }

  const formId = 'change-own-password-form';
  return (
    <Dialog
      open={open}
      title="Change your password"
      description="You stay signed in here; your other sessions end."
      onCancel={() => close(false)}
      footer={
        <>
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" disabled={change.isPending}>
            Change password
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="user-menu__form">
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
          error={currentError}
          hint="Leave empty if you have none yet."
          autoFocus
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={next}
          onChange={(e) => setNext(e.target.value)}
          error={nextError}
          hint="10 characters or more."
        />
      </form>
      {change.error && !currentError && !nextError && <Notice tone="danger">{change.error.message}</Notice>}
    </Dialog>
  );
}
