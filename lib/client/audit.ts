// The audit log as server state: the filter (which round-trips through the page URL, so a filtered
// view can be shared and reloaded), query keys, the page fetcher and the paginated list hook.
import { useInfiniteQuery } from '@tanstack/react-query';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntry, type Page } from '@/lib/contract';
import { apiFetch } from './api';

export type AuditPage = Page<AuditEntry>;

/** What the page filters by. Times are ISO strings; `from` is inclusive, `to` exclusive. */
export interface AuditFilter {
  run?: string;
  tool?: string;
  action?: AuditAction;
  who?: string;
  kind?: string;
  from?: string;
  to?: string;
  limit?: number;
}

export const DEFAULT_AUDIT_PAGE_SIZE = 50;
const FILTER_KEYS = ['run', 'tool', 'action', 'who', 'kind', 'from', 'to', 'limit'] as const;

export const auditKeys = {
  all: ['audit'] as const,
  list: (filter: AuditFilter) => ['audit', filter] as const,
};

type ParamSource = { get(name: string): string | null };

/** Reads the filter from the page's query string, dropping values the API would reject. */
export function parseAuditFilter(params: ParamSource): AuditFilter {
  const filter: AuditFilter = {};
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const run = text('run');
  const tool = text('tool');
  const who = text('who');
  const kind = text('kind');
  const action = text('action');
  if (run) filter.run = run;
  if (tool) filter.tool = tool;
  if (who) filter.who = who;
  if (kind) filter.kind = kind;
  if (action && (AUDIT_ACTIONS as readonly string[]).includes(action)) filter.action = action as AuditAction;
  for (const name of ['from', 'to'] as const) {
    const value = text(name);
    if (value && !Number.isNaN(Date.parse(value))) filter[name] = new Date(value).toISOString();
  }
  const limit = Number(text('limit'));
  if (Number.isInteger(limit) && limit >= 1 && limit <= 200) filter.limit = limit;
  return filter;
}

/** The page's query string for a filter (empty values left out, stable order). */
export function auditFilterQuery(filter: AuditFilter): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filter[key];
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

export function auditUrl(filter: AuditFilter, cursor?: string | null): string {
  const params = new URLSearchParams();
  if (filter.run) params.set('runId', filter.run);
  if (filter.tool) params.set('tool', filter.tool);
  if (filter.action) params.set('action', filter.action);
  if (filter.who) params.set('decidedBy', filter.who);
  if (filter.kind) params.set('kind', filter.kind);
  if (filter.from) params.set('from', filter.from);
  if (filter.to) params.set('to', filter.to);
  params.set('limit', String(filter.limit ?? DEFAULT_AUDIT_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  return `/api/audit?${params.toString()}`;
}

export function fetchAuditPage(filter: AuditFilter, cursor?: string | null): Promise<AuditPage> {
  return apiFetch<AuditPage>(auditUrl(filter, cursor));
}

export function useAuditLog(filter: AuditFilter) {
  return useInfiniteQuery({
    queryKey: auditKeys.list(filter),
    queryFn: ({ pageParam }) => fetchAuditPage(filter, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
  });
}

/** `<input type="datetime-local">` value (local time, minutes) for an ISO instant. */
export function toLocalInput(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** The ISO instant of a `datetime-local` value (read as local time), or undefined when empty. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** "850 ms", "7.4 s", "3 min 5 s": how long a human took to decide. */
export function formatWait(ms: number | null): string {
  if (ms === null || ms < 0) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1_000);
  return seconds ? `${minutes} min ${seconds} s` : `${minutes} min`;
}

/**
 * The rule that decided, as a short label: `rule no-sudo (policy v3)`, `rule #1 of the run's
 * permissions` (the per-run overlay its caller passed), or `an "always allow" grant`.
 */
export function ruleLabel(rule: Record<string, unknown> | null): string | undefined {
  if (!rule) return undefined;
  if (rule.source === 'grant') return 'an “always allow” grant';
  if (rule.source === 'run') {
    const position = typeof rule.permissionsIndex === 'number' ? ` #${rule.permissionsIndex + 1}` : '';
    return `rule${typeof rule.id === 'string' ? ` ${rule.id}` : position} of the run’s permissions`;
  }
  const id = typeof rule.id === 'string' ? rule.id : typeof rule.index === 'number' ? `#${rule.index + 1}` : undefined;
  if (!id) return undefined;
  return typeof rule.policyVersion === 'number' ? `rule ${id} (policy v${rule.policyVersion})` : `rule ${id}`;
}
