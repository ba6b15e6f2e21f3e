// Set a new password for a user (their other sessions end). The policy's refusal (length) shows
// under the field.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Dialog, Notice, TextField } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { useResetPassword, type User } from '@/lib/client/users';

export function ResetPasswordDialog({ user, onClose }: { user: User | null; onClose: (done: boolean) => void }) {
  const [password, setPassword] = useState('');
  const reset = useResetPassword();
  const error = reset.error instanceof ApiError ? reset.error : undefined;
  const fieldError = error?.fieldMessage('password');

  function close(done: boolean) {
    setPassword('');
    reset.reset();
    onClose(done);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!user) return;
    reset.mutate({ id: user.id, password }, { onSuccess: () => close(true) });
  }

  const formId = 'reset-password-form';
  return (
    <Dialog
      open={user !== null}
      title={user ? `Reset the password of ${user.username}` : 'Reset the password'}
      description="They sign in with the new password from now on; their other sessions end."
      onCancel={() => close(false)}
      footer={
        <>
          <Button onClick={() => close(false)}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" disabled={reset.isPending}>
            Set password
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldError}
          hint="10 characters or more."
          autoFocus
        />
      </form>
      {reset.error && !fieldError && <Notice tone="danger">{reset.error.message}</Notice>}
    </Dialog>
  );
}
