// The live Always Allow grants: what each allows, for whom (one session, or everyone: a global
// grant applies to every user's runs, so it says so in words), who made it and when, with Revoke
// (the next matching call asks again). A card per grant at phone width.
'use client';
import { useState } from 'react';
import { Badge, Button, Card, CardHeader, Notice, Revealed, Table } from '@/components/ui';
import type { Grant } from '@/lib/contract';
import { useGrants, useRevokeGrant } from '@/lib/client/grants';
import { describeRule } from '@/lib/policy/explain';
import '@/components/runs/table-cards.css';

/** Who a grant applies to, as a person reads it. */
export const scopeLabel = (grant: Pick<Grant, 'scope'>) => (grant.scope === 'global' ? 'Everyone' : 'This session');

const when = (iso: string) => new Date(iso).toLocaleString();

function GrantRow({ grant, onRevoke, busy }: { grant: Grant; onRevoke: (g: Grant) => void; busy: boolean }) {
  const summary = describeRule(grant.rule);
  return (
    <tr>
      <td>
        <code className="rules-code">
          <Revealed text={summary} />
        </code>
        {grant.once && <p className="rules-muted">once</p>}
      </td>
      <td data-label="Applies to">
        <Badge tone={grant.scope === 'global' ? 'warning' : 'info'}>{scopeLabel(grant)}</Badge>
        {grant.sessionId && <p className="rules-muted">Session {grant.sessionId}</p>}
      </td>
      <td data-label="Created by">
        <Revealed text={grant.createdBy} />
      </td>
      <td data-label="Created">
        <time dateTime={grant.createdAt}>{when(grant.createdAt)}</time>
      </td>
      <td>
        <Button
          size="sm"
          variant="danger"
          disabled={busy}
          onClick={() => onRevoke(grant)}
          aria-label={`Revoke grant ${summary}${grant.sessionId ? ` for session ${grant.sessionId}` : ' (everyone)'}`}
        >
          Revoke
        </Button>
      </td>
    </tr>
  );
}

export function GrantsList() {
  const grants = useGrants();
  const revoke = useRevokeGrant();
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);

  async function onRevoke(grant: Grant) {
    try {
      await revoke.mutateAsync(grant.id);
      setMessage({ tone: 'success', text: `Revoked: ${describeRule(grant.rule)}. The next matching call asks again.` });
    } catch (error) {
      setMessage({ tone: 'danger', text: error instanceof Error ? error.message : 'Revoking failed' });
    }
  }

  return (
    <Card aria-labelledby="grants-heading">
      <CardHeader
        id="grants-heading"
        title="Always Allow grants"
        actions={
          <Button size="sm" onClick={() => grants.refetch()} disabled={grants.isFetching}>
            Refresh
          </Button>
        }
      />
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {grants.isPending && <p className="rules-muted">Loading grants…</p>}
      {grants.isError && <Notice tone="danger">Could not load the grants: {grants.error.message}</Notice>}
      {grants.data && grants.data.length === 0 && (
        <p className="rules-muted">No live grants. “Always Allow” in the chat adds one.</p>
      )}
      {grants.data && grants.data.length > 0 && (
        <Table caption="Always Allow grants" className="cards-at-phone">
          <thead>
            <tr>
              <th scope="col">Allows</th>
              <th scope="col">Applies to</th>
              <th scope="col">Created by</th>
              <th scope="col">Created</th>
              <th scope="col">
                <span className="ui-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {grants.data.map((g) => (
              <GrantRow key={g.id} grant={g} onRevoke={onRevoke} busy={revoke.isPending} />
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
