// Every saved version of the policy, newest first. Restoring saves that version's policy as a new
// version (history is never rewritten), based on the version on screen (If-Match).
'use client';
import { useState } from 'react';
import { Badge, Button, Card, CardHeader, Notice, Revealed, Table } from '@/components/ui';
import {
  conflictVersion,
  usePolicyVersions,
  useSavePolicy,
  type PolicyVersion,
  type StoredPolicy,
} from '@/lib/client/policy';

export function VersionHistory({
  current,
  onConflict,
}: {
  current: StoredPolicy;
  onConflict: (version: number) => void;
}) {
  const versions = usePolicyVersions();
  const save = useSavePolicy();
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);

  async function restore(version: PolicyVersion) {
    try {
      const saved = await save.mutateAsync({
        policy: version.policy,
        version: current.version,
        note: `Restored version ${version.version}`,
      });
      setMessage({ tone: 'success', text: `Restored version ${version.version} as version ${saved.version}.` });
    } catch (error) {
      const conflict = conflictVersion(error);
      if (conflict !== undefined) onConflict(conflict);
      else setMessage({ tone: 'danger', text: error instanceof Error ? error.message : 'Restoring failed' });
    }
  }

  return (
    <Card aria-labelledby="history-heading">
      <CardHeader id="history-heading" title="Version history" />
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {versions.isPending && <p className="rules-muted">Loading versions…</p>}
      {versions.isError && <Notice tone="danger">Could not load the versions: {versions.error.message}</Notice>}
      {versions.data && (
        <Table caption="Policy versions">
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">Saved</th>
              <th scope="col">By</th>
              <th scope="col">Note</th>
              <th scope="col">Rules</th>
              <th scope="col">
                <span className="ui-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {versions.data.map((v) => (
              <tr key={v.version}>
                <td>
                  Version {v.version} {v.version === current.version && <Badge tone="success">current</Badge>}
                </td>
                <td>
                  <time dateTime={v.createdAt}>{new Date(v.createdAt).toLocaleString()}</time>
                </td>
                <td>
                  <Revealed text={v.createdBy} />
                </td>
                <td>{v.note ? <Revealed text={v.note} /> : <span className="rules-muted">none</span>}</td>
                <td>{v.policy.rules.length}</td>
                <td>
                  {v.version !== current.version && (
                    <Button
                      size="sm"
                      onClick={() => restore(v)}
                      disabled={save.isPending}
                      aria-label={`Restore version ${v.version}`}
                    >
                      Restore
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </Card>
  );
}
