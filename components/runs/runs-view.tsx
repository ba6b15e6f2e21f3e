// The /runs page body: a status filter (kept in the URL), the runs table, "Load older runs", and a
// quiet refresh every few seconds while any run on screen is still live.
'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';
import { Button, Card, Notice, SelectField } from '@/components/ui';
import { RUN_STATUSES } from '@/lib/contract';
import {
  LIVE_REFRESH_MS,
  hasLiveRun,
  parseLimit,
  parseRunStatus,
  runStatusLabel,
  useRecentlyCancelledRunId,
  useRunsList,
} from '@/lib/client/runs-list';
import { revealText } from '@/lib/client/reveal';
import { RunsTable } from './runs-table';
import './runs.css';

const STATUS_OPTIONS = [
  { value: '', label: 'All statuses' },
  ...RUN_STATUSES.map((s) => ({ value: s, label: runStatusLabel(s) })),
];

export function RunsView() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const status = parseRunStatus(params.get('status'));
  const limit = parseLimit(params.get('limit'));
  const runs = useRunsList({ status, limit });
  const items = runs.data?.pages.flatMap((page) => page.items) ?? [];
  const live = hasLiveRun(runs.data);
  const cancelledId = useRecentlyCancelledRunId();
  const cancelled = items.find((run) => run.id === cancelledId);

  useEffect(() => {
    // The cancelled run's Cancel button (which had focus) is gone: focus its title instead.
    if (cancelledId)
      document.querySelector<HTMLAnchorElement>(`tr[data-run-id="${CSS.escape(cancelledId)}"] a`)?.focus();
  }, [cancelledId]);

  const setStatus = (value: string) => {
    const next = new URLSearchParams(params.toString());
    if (value) next.set('status', value);
    else next.delete('status');
    const query = next.toString();
    router.replace(query ? `${pathname}?${query}` : pathname, { scroll: false });
  };

  return (
    <Card aria-labelledby="runs-list-title">
      <div className="runs-toolbar">
        <h2 id="runs-list-title" className="ui-card__title">
          {status ? `Runs: ${runStatusLabel(status)}` : 'All runs'}
        </h2>
        <SelectField
          label="Status"
          className="runs-toolbar__status"
          value={status ?? ''}
          onChange={(e) => setStatus(e.target.value)}
          options={STATUS_OPTIONS}
        />
        {/* A steady label: the list also refetches in the background every few seconds. */}
        <Button size="sm" onClick={() => void runs.refetch()}>
          Refresh
        </Button>
      </div>
      <p className="runs-toolbar__live" aria-live="polite">
        {cancelled ? `Cancelled “${revealText(cancelled.title ?? 'Untitled run')}”. ` : ''}
        {live ? `Live runs on screen: refreshing every ${LIVE_REFRESH_MS / 1000} s.` : ''}
      </p>
      {runs.isPending && <p className="runs-empty">Loading runs…</p>}
      {runs.error && <Notice tone="danger">Could not load the runs: {runs.error.message}</Notice>}
      {runs.isSuccess && items.length === 0 && (
        <p className="runs-empty">
          {status ? `No ${runStatusLabel(status)} runs.` : 'No runs yet. Start one from the chat.'}
        </p>
      )}
      {items.length > 0 && <RunsTable runs={items} />}
      {runs.hasNextPage && (
        <div className="runs-more">
          <Button onClick={() => void runs.fetchNextPage()} disabled={runs.isFetchingNextPage}>
            {runs.isFetchingNextPage ? 'Loading…' : 'Load older runs'}
          </Button>
        </div>
      )}
    </Card>
  );
}
