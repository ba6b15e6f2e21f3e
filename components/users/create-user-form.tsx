// Create a user: username, display name, role and an optional password (without one, hand the
// user a sign-in link from the table). Server refusals show under their field.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Card, CardHeader, Notice, SelectField, TextField } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import type { Role } from '@/lib/contract';
import { newUserBody, ROLE_OPTIONS, useCreateUser } from '@/lib/client/users';

const EMPTY = { username: '', displayName: '', role: 'user' as Role, password: '' };

export function CreateUserForm() {
  const [form, setForm] = useState(EMPTY);
  const [created, setCreated] = useState<string | null>(null);
  const create = useCreateUser();
  const error = create.error instanceof ApiError ? create.error : undefined;
  // A taken username is a 409 without fields: it still belongs under the Username field.
  const taken = error?.code === 'conflict:username' ? error.message : undefined;
  const field = (path: string) => error?.fieldMessage(path) ?? (path === 'username' ? taken : undefined);
  const set = (key: keyof typeof EMPTY) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate(newUserBody(form), {
      onSuccess: ({ user }) => {
        setCreated(
          `Created ${user.username} (${user.role}).${user.hasPassword ? '' : ' Give them a sign-in link from the table.'}`,
        );
        setForm(EMPTY);
      },
    });
  }

  const otherError = create.error && !taken && !(error && error.fields.length > 0) ? create.error.message : undefined;
  return (
    <Card aria-labelledby="create-user-heading">
      <CardHeader id="create-user-heading" title="Create a user" />
      <form className="users-form" onSubmit={submit} aria-label="Create a user" noValidate>
        <TextField
          label="Username"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={form.username}
          onChange={set('username')}
          error={field('username')}
        />
        <TextField
          label="Display name"
          autoComplete="off"
          value={form.displayName}
          onChange={set('displayName')}
          error={field('displayName')}
          hint="Optional: defaults to the username"
        />
        <SelectField
          label="Role"
          value={form.role}
          onChange={set('role')}
          options={ROLE_OPTIONS}
          error={field('role')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={set('password')}
          error={field('password')}
          hint="Optional, 10+ characters. Without one, create a sign-in link."
        />
        <div className="users-form__actions">
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create user
          </Button>
        </div>
      </form>
      {otherError && <Notice tone="danger">{otherError}</Notice>}
      {created && <Notice tone="success">{created}</Notice>}
    </Card>
  );
}
