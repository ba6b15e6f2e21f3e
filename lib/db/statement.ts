// Helpers for the few hand-written statements (data-modifying CTEs that Drizzle's builder cannot
// express): read the rows whichever driver ran them, and pass rows in as one JSON parameter.
import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { RecordAuditInput } from './audit';

/** PGlite and node-postgres both return `{ rows }` from `db.execute`. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** `jsonb_to_recordset(...) AS a(...)`: audit rows as a relation, ids filled in, for INSERT ... SELECT. */
export function auditValues(entries: RecordAuditInput[]): SQL {
  const rows = entries.map((entry) => ({
    id: entry.id ?? randomUUID(),
    at: entry.at?.toISOString() ?? null,
    kind: entry.kind,
    run_id: entry.runId ?? null,
    session_id: entry.sessionId ?? null,
    agent_id: entry.agentId ?? null,
    tool: entry.tool ?? null,
    params: entry.params ?? null,
    action: entry.action ?? null,
    reason: entry.reason ?? null,
    rule: entry.rule ?? null,
    decided_by: entry.decidedBy ?? null,
    wait_ms: entry.waitMs ?? null,
    details: entry.details ?? null,
  }));
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS a(id text, at timestamptz, kind text, run_id text, session_id text,
    agent_id text, tool text, params jsonb, action text, reason text, rule jsonb, decided_by text, wait_ms bigint, details jsonb)`;
}
