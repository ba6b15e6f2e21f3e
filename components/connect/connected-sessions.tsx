// The sessions that have called so far: the runs whose source is `hook`, which holds every outside
// agent's session (Claude Code's, Gemini CLI's, Codex CLI's, those of `POST /api/hooks/decide`);
// the table shows each run's agent. Filtering by the chosen agent here would hide the others'.
'use client';
import Link from 'next/link';
import { Card, CardHeader, Notice } from '@/components/ui';
import { RunsTable } from '@/components/runs/runs-table';
import { useRunsList } from '@/lib/client/runs-list';
import { connectAgentNames } from '@/lib/contract';

export function ConnectedSessions() {
  const runs = useRunsList({ source: 'hook' });
  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <Card aria-labelledby="connect-sessions-heading">
      <CardHeader id="connect-sessions-heading" title="Connected sessions" />
      <p className="connect-muted">
        To approve from a phone, open this Gatehouse&apos;s <Link href="/runs">Runs</Link> page there: each{' '}
        {connectAgentNames('or')} session is a run, and its waiting calls open in the approval dialog.
      </p>
      {runs.isError && <Notice tone="danger">Could not load the sessions: {runs.error.message}</Notice>}
      {runs.isSuccess && items.length === 0 && (
        <p className="connect-muted">No session has called yet. Start {connectAgentNames('or')} in the project.</p>
      )}
      {items.length > 0 && <RunsTable runs={items} />}
    </Card>
  );
}
