// One audit entry: when, what kind, which run/agent/tool, the action, who decided and why, how
// long the human took, and the parameters (collapsed).
'use client';
import Link from 'next/link';
import { Badge, JsonView, Revealed } from '@/components/ui';
import type { AuditEntry } from '@/lib/contract';
import { formatWait, ruleLabel } from '@/lib/client/audit';
import { Timestamp } from '@/components/runs/timestamp';

export function AuditRow({ entry }: { entry: AuditEntry }) {
  const rule = ruleLabel(entry.rule);
  const always = entry.details?.always === true;
  return (
    <tr>
      <td data-label="Time" className="audit-table__nowrap">
        <Timestamp iso={entry.at} />
      </td>
      <td data-label="Kind" className="audit-table__nowrap">
        {entry.kind.replaceAll('_', ' ')}
      </td>
      <td data-label="Action">{entry.action ? <Badge>{entry.action}</Badge> : '—'}</td>
      <td data-label="Tool">
        {entry.tool ? (
          <span className="audit-table__mono">
            <Revealed text={entry.tool} />
          </span>
        ) : (
          '—'
        )}
      </td>
      <td data-label="Who">{entry.decidedBy ? <Revealed text={entry.decidedBy} /> : '—'}</td>
      <td data-label="Why" className="audit-table__why">
        {entry.reason ? <Revealed text={entry.reason} /> : '—'}
        {rule && (
          <span className="audit-table__rule">
            <Revealed text={rule} />
          </span>
        )}
        {always && <span className="audit-table__rule">with an “always allow” rule</span>}
      </td>
      <td data-label="Waited" className="audit-table__nowrap">
        {formatWait(entry.waitMs)}
      </td>
      <td data-label="Run" className="audit-table__nowrap">
        {entry.runId ? (
          <Link
            href={`/?run=${encodeURIComponent(entry.runId)}`}
            title={entry.runId}
            aria-label={`Run ${entry.runId}`}
            className="audit-table__mono"
          >
            {entry.runId.slice(0, 8)}
          </Link>
        ) : (
          '—'
        )}
      </td>
      <td data-label="Agent">
        {entry.agentId ? (
          <span className="audit-table__mono">
            <Revealed text={entry.agentId} />
          </span>
        ) : (
          '—'
        )}
      </td>
      <td data-label="Params" className="audit-table__params">
        <Collapsed label="Params" value={entry.params} />
        <Collapsed label="Details" value={entry.details} />
        <Collapsed label="Rule" value={entry.kind === 'decision' ? null : entry.rule} />
        {!entry.params && !entry.details && !(entry.kind !== 'decision' && entry.rule) && '—'}
      </td>
    </tr>
  );
}

function Collapsed({ label, value }: { label: string; value: Record<string, unknown> | null }) {
  if (!value) return null;
  return (
    <details className="audit-table__details">
      <summary>{label}</summary>
      <JsonView value={value} label={label} limit={400} />
    </details>
  );
}
