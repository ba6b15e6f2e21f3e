// Username and password. Refusals show inline: field errors under their field, the rest (wrong
// password, disabled account, too many attempts with the wait) as an alert above the button.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Notice, TextField } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { loginErrorMessage, useLogin } from '@/lib/client/auth';

export function PasswordForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const login = useLogin();
  const error = login.error;
  const fieldError = (path: string) => (error instanceof ApiError ? error.fieldMessage(path) : undefined);
  const formError =
    error && !(error instanceof ApiError && error.fields.length > 0) ? loginErrorMessage(error) : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    login.mutate({ username, password }, { onSuccess: onSignedIn });
  }

  return (
    <form className="login__form" onSubmit={submit} aria-label="Sign in with a password" noValidate>
      <TextField
        label="Username"
        name="username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        error={fieldError('username')}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldError('password')}
      />
      {formError && <Notice tone="danger">{formError}</Notice>}
      <div className="login__actions">
        <Button type="submit" variant="primary" disabled={login.isPending || login.isSuccess}>
          {login.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </div>
    </form>
  );
}
