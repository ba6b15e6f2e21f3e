// One upstream server: where it is configured, how it connects (secrets as names), its state,
// Test, Edit and Remove (servers added here only), its tools (annotations, risk, what the policy
// decides) and pending changes.
'use client';
import { useState } from 'react';
import { Badge, Button, Card, CardHeader, Notice, Revealed, Table } from '@/components/ui';
import type { McpServerView } from '@/lib/contract';
import { useRemoveServer, useTestServer } from '@/lib/client/servers';
import { DefinitionChange } from './definition-change';
import { ServerForm } from './server-form';

const hints = (annotations: Record<string, unknown>) =>
  Object.entries(annotations)
    .filter(([k, v]) => k.endsWith('Hint') && v !== undefined)
    .map(([k, v]) => `${k.replace(/Hint$/, '')}: ${String(v)}`)
    .join(', ');

export function ServerCard({ server, allowStdio }: { server: McpServerView; allowStdio: boolean }) {
  const [editing, setEditing] = useState(false);
  const test = useTestServer();
  const remove = useRemoveServer();
  const secrets = Object.keys(server.headers ?? server.env ?? {});
  return (
    <Card aria-label={`Server ${server.name}`}>
      <CardHeader
        title={server.name}
        actions={
          <>
            <Badge tone={server.state === 'ready' ? 'success' : server.state === 'unavailable' ? 'danger' : 'neutral'}>
              {server.state}
            </Badge>
            <Badge>{server.source === 'file' ? 'config file (read-only)' : 'added here'}</Badge>
            {server.trusted && <Badge tone="info">trusted</Badge>}
            <Button size="sm" onClick={() => test.mutate(server.name)} disabled={test.isPending}>
              Test {server.name}
            </Button>
            {!server.readOnly && (
              <Button size="sm" onClick={() => setEditing(true)} disabled={editing} aria-expanded={editing}>
                Edit {server.name}
              </Button>
            )}
            {!server.readOnly && (
              <Button size="sm" variant="danger" onClick={() => remove.mutate(server.name)} disabled={remove.isPending}>
                Remove {server.name}
              </Button>
            )}
          </>
        }
      />
      <p className="servers-meta">
        {server.type === 'http' ? server.url : [server.command, ...(server.args ?? [])].join(' ')}
        {server.cwd && ` · in ${server.cwd}`}
        {secrets.length > 0 && ` · secrets: ${secrets.join(', ')} (hidden)`}
      </p>
      {editing && <ServerForm allowStdio={allowStdio} server={server} onDone={() => setEditing(false)} />}
      {server.error && <Notice tone="danger">{server.error}</Notice>}
      {test.data && (
        <Notice tone={test.data.state === 'ready' ? 'success' : 'danger'}>
          {test.data.state === 'ready'
            ? `Connected: ${test.data.tools} tool(s).`
            : `Not connected: ${test.data.error ?? test.data.state}`}
        </Notice>
      )}
      {server.changes.map((change) => (
        <DefinitionChange key={change.tool} server={server.name} change={change} />
      ))}
      {server.tools.length > 0 && (
        <Table caption={`Tools of ${server.name}`}>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Annotations</th>
              <th scope="col">Risk</th>
              <th scope="col">Policy</th>
            </tr>
          </thead>
          <tbody>
            {server.tools.map((tool) => (
              <tr key={tool.name}>
                <td>
                  <code>
                    <Revealed text={tool.name} />
                  </code>
                  {/* What the model reads: hidden characters (tags spelling instructions, bidi) must show. */}
                  <div className="servers-desc">
                    <Revealed text={tool.description} />
                  </div>
                  {tool.blocked && <Badge tone="danger">refused: awaiting review</Badge>}
                </td>
                <td>{hints(tool.annotations)}</td>
                <td>{tool.risk}</td>
                <td>{tool.decision}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {server.rejected.map((r) => (
        <Notice key={r.tool} tone="warning">
          <Revealed text={r.tool} /> left out: <Revealed text={r.reason} />
        </Notice>
      ))}
    </Card>
  );
}
