// A changed tool definition awaiting review: the pinned one and the one the server lists now, side
// by side, and Accept (which sends the digest shown, so a later change is not accepted with it).
'use client';
import { Button, Card, CardHeader, JsonView } from '@/components/ui';
import type { McpServerView } from '@/lib/contract';
import { useAcceptChange } from '@/lib/client/servers';

type Change = McpServerView['changes'][number];

export function DefinitionChange({ server, change }: { server: string; change: Change }) {
  const accept = useAcceptChange();
  return (
    <Card aria-label={`Changed definition of ${change.tool}`} className="servers-change">
      <CardHeader
        level={3}
        title={`${change.tool} changed: calls are refused until accepted`}
        actions={
          <Button
            variant="danger"
            disabled={accept.isPending}
            onClick={() => accept.mutate({ server, tool: change.upstreamName, digest: change.new.digest })}
          >
            Accept change to {change.upstreamName}
          </Button>
        }
      />
      <div className="servers-sides">
        <div>
          <h4>Pinned</h4>
          <JsonView value={change.old.definition} label={`Pinned definition of ${change.tool}`} />
        </div>
        <div>
          <h4>New</h4>
          <JsonView value={change.new.definition} label={`New definition of ${change.tool}`} />
        </div>
      </div>
      {accept.error && <p role="alert">{accept.error.message}</p>}
    </Card>
  );
}
