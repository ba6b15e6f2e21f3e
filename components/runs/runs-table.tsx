// The runs as a table: each title opens the run's transcript in the chat; live runs can be
// cancelled; every run links to its audit trail.
'use client';
import Link from 'next/link';
import { Badge, Revealed, Table } from '@/components/ui';
import { revealText } from '@/lib/client/reveal';
import { isLiveStatus, modeLabel, type RunSummary } from '@/lib/contract';
import { runStatusLabel } from '@/lib/client/runs-list';
import { CancelRunButton } from './cancel-run-button';
import { Timestamp } from './timestamp';
import './table-cards.css';

export function RunsTable({ runs }: { runs: RunSummary[] }) {
  return (
    <Table caption="Runs, newest first" className="runs-table cards-at-phone">
      <thead>
        <tr>
          <th scope="col">Run</th>
          <th scope="col">Status</th>
          <th scope="col">Mode</th>
          <th scope="col">Model</th>
          <th scope="col">Started</th>
          <th scope="col">Updated</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((run) => (
          <RunRow key={run.id} run={run} />
        ))}
      </tbody>
    </Table>
  );
}

function RunRow({ run }: { run: RunSummary }) {
  const raw = run.title?.trim() || 'Untitled run';
  // Where only a string fits (a tooltip, an accessible name), the title with its tokens.
  const title = revealText(raw);
  return (
    <tr data-run-id={run.id}>
      <td className="runs-table__title">
        <Link href={`/?run=${encodeURIComponent(run.id)}`} title={title}>
          <Revealed text={raw} />
        </Link>
        <span className="runs-table__id">{run.id.slice(0, 8)}</span>
      </td>
      <td data-label="Status">
        <Badge>{runStatusLabel(run.status)}</Badge>
      </td>
      <td data-label="Mode">{modeLabel(run.mode)}</td>
      <td data-label="Model">
        {run.model ? <Revealed text={run.model} /> : '—'}
        {run.agent && (
          <span className="runs-table__id">
            <Revealed text={run.agent} />
          </span>
        )}
      </td>
      <td data-label="Started">
        <Timestamp iso={run.createdAt} />
      </td>
      <td data-label="Updated">
        <Timestamp iso={run.updatedAt} />
      </td>
      <td data-label="Actions">
        <div className="runs-table__actions">
          {isLiveStatus(run.status) && <CancelRunButton runId={run.id} title={title} />}
          <Link
            href={`/audit?run=${encodeURIComponent(run.id)}`}
            aria-label={`Audit log of ${title}`}
            className="runs-table__audit"
          >
            Audit log
          </Link>
        </div>
      </td>
    </tr>
  );
}
