// The signed-in user's tokens made here (named after their agent, "Codex CLI ..."), with Revoke:
// a user who is not an admin has no other page to revoke them on. Revoking one makes the agent's
// hook fail, which blocks its calls (fail closed) until a new token is set. A full token made here
// before agent tokens existed is marked, so it can be replaced by one that only asks the gate.
'use client';
import { Button, Notice } from '@/components/ui';
import { useRevokeToken, useTokens } from '@/lib/client/tokens';
import { isConnectTokenName } from './token-name';

export function ConnectTokens() {
  const tokens = useTokens();
  const revoke = useRevokeToken();
  const mine = (tokens.data ?? []).filter((t) => isConnectTokenName(t.name));
  if (tokens.isError) return <Notice tone="danger">Could not load your tokens: {tokens.error.message}</Notice>;
  if (mine.length === 0) return null;
  return (
    <div className="connect-tokens">
      <h3 className="connect-tokens__title">Your tokens made here</h3>
      <ul className="connect-tokens__list">
        {mine.map((token) => (
          <li key={token.id}>
            <span>{token.name}</span>
            {token.purpose === 'full' && (
              <span className="connect-muted">full token: it can also decide; replace it with a new one</span>
            )}
            <span className="connect-muted">
              {token.lastUsedAt ? `last used ${new Date(token.lastUsedAt).toLocaleString()}` : 'not used yet'}
            </span>
            <Button
              size="sm"
              variant="danger"
              disabled={revoke.isPending}
              onClick={() => revoke.mutate(token.id)}
              aria-label={`Revoke token ${token.name}`}
            >
              Revoke
            </Button>
          </li>
        ))}
      </ul>
      {revoke.isError && <Notice tone="danger">Revoking failed: {revoke.error.message}</Notice>}
    </div>
  );
}
