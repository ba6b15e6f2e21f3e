// The signed-in user's own API tokens (for scripts and the CLI: `Authorization: Bearer <token>`):
// create one (its secret is shown once, here), see each one's purpose and when it was last used,
// revoke. Tokens made here are full; the Connect page makes agent tokens for hooks.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Card, CardHeader, Notice, Table, TextField } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import {
  TOKEN_PURPOSE_LABELS,
  tokenBody,
  useCreateToken,
  useRevokeToken,
  useTokens,
  type ApiToken,
  type CreatedToken,
} from '@/lib/client/tokens';
import { SecretField } from './secret-field';

const when = (iso: string | null, none: string) => (iso ? new Date(iso).toLocaleString() : none);

export function TokensPanel() {
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState('');
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const error = create.error instanceof ApiError ? create.error : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate(tokenBody(name, days), {
      onSuccess: (token) => {
        setCreated(token);
        setName('');
        setDays('');
      },
    });
  }

  return (
    <Card aria-labelledby="tokens-heading">
      <CardHeader id="tokens-heading" title="Your API tokens" />
      <p className="users-muted users-lead">
        For scripts and the CLI: send <code>Authorization: Bearer &lt;token&gt;</code>. A token acts as you, with your
        role. An agent token (made on the Connect page for an agent&apos;s hook) only asks the gate.
      </p>
      <form className="users-form" onSubmit={submit} aria-label="Create an API token" noValidate>
        <TextField
          label="Token name"
          autoComplete="off"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={error?.fieldMessage('name')}
        />
        <TextField
          label="Expires in days"
          inputMode="numeric"
          value={days}
          onChange={(e) => setDays(e.target.value)}
          error={error?.fieldMessage('expiresInDays')}
          hint="Optional: blank never expires"
        />
        <div className="users-form__actions">
          <Button type="submit" variant="primary" disabled={create.isPending}>
            Create token
          </Button>
        </div>
      </form>
      {create.error && !(error && error.fields.length > 0) && <Notice tone="danger">{create.error.message}</Notice>}
      {created && (
        <Notice tone="success">
          <SecretField
            label={`New token ${created.name}`}
            value={created.token}
            hint="Copy it now: it is shown only once."
          />
        </Notice>
      )}
      {revoke.isError && <Notice tone="danger">Revoking failed: {revoke.error.message}</Notice>}
      {tokens.isError && <Notice tone="danger">Could not load your tokens: {tokens.error.message}</Notice>}
      {tokens.data && tokens.data.length === 0 && <p className="users-muted">No live tokens.</p>}
      {tokens.data && tokens.data.length > 0 && (
        <Table caption="Your API tokens" className="users-cards">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Purpose</th>
              <th scope="col">Created</th>
              <th scope="col">Expires</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="ui-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.data.map((token: ApiToken) => (
              <tr key={token.id}>
                <th scope="row" className="users-rowhead">
                  {token.name}
                </th>
                <td data-label="Purpose">{TOKEN_PURPOSE_LABELS[token.purpose]}</td>
                <td data-label="Created">{when(token.createdAt, '')}</td>
                <td data-label="Expires">{when(token.expiresAt, 'never')}</td>
                <td data-label="Last used">{when(token.lastUsedAt, 'not yet')}</td>
                <td>
                  <Button
                    size="sm"
                    variant="danger"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(token.id)}
                    aria-label={`Revoke token ${token.name}`}
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
