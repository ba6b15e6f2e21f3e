// The audit trail: decisions, policy edits, grant changes. Append-only; read newest first with
// filters and keyset pagination over (at, id).
import { randomUUID } from 'node:crypto';
import { and, eq, gte, inArray, lt } from 'drizzle-orm';
import type { Database } from './database';
import { newestFirst, olderThan, pageSize, toPage, type Page } from './pagination';
import { audit, type AuditKind, type AuditRow } from './schema';

export interface RecordAuditInput {
  id?: string;
  /** Default: the database's now(). */
  at?: Date;
  kind: AuditKind;
  runId?: string;
  sessionId?: string;
  agentId?: string;
  tool?: string;
  params?: Record<string, unknown>;
  action?: string;
  reason?: string;
  rule?: Record<string, unknown>;
  decidedBy?: string;
  waitMs?: number;
  details?: Record<string, unknown>;
}

export interface ListAuditInput {
  runId?: string;
  sessionId?: string;
  tool?: string;
  action?: string;
  decidedBy?: string;
  kind?: AuditKind;
  /** Inclusive lower bound on `at`. */
  from?: Date;
  /** Exclusive upper bound on `at`. */
  to?: Date;
  limit?: number;
  cursor?: string;
}

export function auditQueries(db: Database) {
  return {
    async recordAudit({ id, ...entry }: RecordAuditInput): Promise<AuditRow> {
      const [row] = await db
        .insert(audit)
        .values({ ...entry, id: id ?? randomUUID() })
        .returning();
      return row!;
    },

    /** Whether any of these audit rows is stored. */
    async anyAuditStored(ids: string[]): Promise<boolean> {
      if (ids.length === 0) return false;
      const rows = await db.select({ id: audit.id }).from(audit).where(inArray(audit.id, ids)).limit(1);
      return rows.length > 0;
    },

    /** Newest first; pass `nextCursor` back as `cursor` for the next page. */
    async listAudit(filter: ListAuditInput = {}): Promise<Page<AuditRow>> {
      const size = pageSize(filter.limit);
      const rows = await db
        .select()
        .from(audit)
        .where(
          and(
            olderThan(audit.at, audit.id, filter.cursor),
            filter.runId ? eq(audit.runId, filter.runId) : undefined,
            filter.sessionId ? eq(audit.sessionId, filter.sessionId) : undefined,
            filter.tool ? eq(audit.tool, filter.tool) : undefined,
            filter.action ? eq(audit.action, filter.action) : undefined,
            filter.decidedBy ? eq(audit.decidedBy, filter.decidedBy) : undefined,
            filter.kind ? eq(audit.kind, filter.kind) : undefined,
            filter.from ? gte(audit.at, filter.from) : undefined,
            filter.to ? lt(audit.at, filter.to) : undefined,
          ),
        )
        .orderBy(...newestFirst(audit.at, audit.id))
        .limit(size + 1);
      return toPage(rows, size, (row) => ({ at: row.at, id: row.id }));
    },
  };
}

export type AuditQueries = ReturnType<typeof auditQueries>;
