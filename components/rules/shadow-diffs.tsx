// The shadow's differences from the live decisions: the counters, the groups (live -> shadow,
// tool) with a few examples each, and the most recent differences.
'use client';
import { Badge, Button, Revealed, Table } from '@/components/ui';
import type { ShadowDiff, ShadowDiffs } from '@/lib/contract';

function callText(diff: ShadowDiff): string {
  const params = diff.params;
  const main = params.command ?? params.path ?? params.url;
  return typeof main === 'string' ? main : JSON.stringify(params);
}

function Change({ live, shadow }: { live: string; shadow: string }) {
  return (
    <span className="rules-actions">
      <Badge>{live}</Badge> → <Badge>{shadow}</Badge>
    </span>
  );
}

export function ShadowDiffsView({
  diffs,
  onRefresh,
  refreshing,
}: {
  diffs: ShadowDiffs;
  onRefresh: () => void;
  refreshing: boolean;
}) {
  const { counts, groups, recent } = diffs;
  return (
    <div className="rules-stack">
      <div className="rules-actions">
        <p className="rules-muted" aria-live="polite">
          {counts.compared} decisions compared · {counts.same} the same · <strong>{counts.differ} different</strong>
          {counts.dropped > 0
            ? ` · ${counts.dropped} not compared (the background queue was full or a write failed)`
            : ''}
        </p>
        <Button onClick={onRefresh} disabled={refreshing}>
          Refresh differences
        </Button>
      </div>
      {groups.length === 0 ? (
        <p className="rules-muted">No differences yet: every decision compared so far was the same under the shadow.</p>
      ) : (
        <Table caption="Differences by decision and tool">
          <thead>
            <tr>
              <th scope="col">Live → shadow</th>
              <th scope="col">Tool</th>
              <th scope="col">Count</th>
              <th scope="col">Examples</th>
            </tr>
          </thead>
          <tbody>
            {groups.map((group) => (
              <tr key={`${group.liveAction}:${group.shadowAction}:${group.tool}`}>
                <td>
                  <Change live={group.liveAction} shadow={group.shadowAction} />
                </td>
                <td>
                  <Revealed text={group.tool} />
                </td>
                <td>{group.count}</td>
                <td>
                  <ul className="rules-stack">
                    {group.examples.map((example) => (
                      <li key={example.id}>
                        <code className="rules-code">
                          <Revealed text={callText(example)} />
                        </code>
                        <span className="rules-muted">
                          {' '}
                          <Revealed text={example.shadow.explanation} />
                        </span>
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {recent.items.length > 0 && (
        <Table caption="Recent differences">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Call</th>
              <th scope="col">Agent</th>
              <th scope="col">Live → shadow</th>
            </tr>
          </thead>
          <tbody>
            {recent.items.map((diff) => (
              <tr key={diff.id}>
                <td>{new Date(diff.at).toLocaleString()}</td>
                <td>
                  <Revealed text={diff.tool} />{' '}
                  <code className="rules-code">
                    <Revealed text={callText(diff)} />
                  </code>
                </td>
                <td>
                  <Revealed text={diff.agentId} />
                </td>
                <td>
                  <Change live={diff.liveAction} shadow={diff.shadowAction} />
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
