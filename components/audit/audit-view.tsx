// The /audit page body: the filter lives in the URL (shareable, survives a reload); the log is
// read page by page with the API's cursor ("Load older entries").
'use client';
import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { Button, Card, Notice } from '@/components/ui';
import { auditFilterQuery, parseAuditFilter, useAuditLog, type AuditFilter } from '@/lib/client/audit';
import { AuditFilters } from './audit-filters';
import { AuditTable } from './audit-table';
import './audit.css';

export function AuditView() {
  const params = useSearchParams();
  const router = useRouter();
  const pathname = usePathname();
  const filter = parseAuditFilter(params);
  const query = auditFilterQuery(filter);
  const log = useAuditLog(filter);
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const filtered = Object.keys(filter).some((key) => key !== 'limit');

  const apply = (next: AuditFilter) => {
    const search = auditFilterQuery(next);
    router.replace(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };

  return (
    <>
      <Card aria-labelledby="audit-filters-title">
        <h2 id="audit-filters-title" className="ui-card__title audit-card-title">
          Filters
        </h2>
        <AuditFilters key={query} filter={filter} onApply={apply} />
      </Card>
      <Card aria-labelledby="audit-log-title">
        <div className="audit-toolbar">
          <h2 id="audit-log-title" className="ui-card__title">
            {filtered ? 'Matching entries' : 'All entries'}
          </h2>
          <Button size="sm" onClick={() => void log.refetch()} disabled={log.isFetching}>
            {log.isFetching ? 'Refreshing…' : 'Refresh'}
          </Button>
        </div>
        {log.isPending && <p className="audit-empty">Loading the audit log…</p>}
        {log.error && <Notice tone="danger">Could not load the audit log: {log.error.message}</Notice>}
        {log.isSuccess && entries.length === 0 && (
          <p className="audit-empty">{filtered ? 'No entries match these filters.' : 'Nothing recorded yet.'}</p>
        )}
        {entries.length > 0 && <AuditTable entries={entries} />}
        {log.hasNextPage && (
          <div className="audit-more">
            <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
              {log.isFetchingNextPage ? 'Loading…' : 'Load older entries'}
            </Button>
          </div>
        )}
      </Card>
    </>
  );
}
