// Helpers for the few hand-written statements (data-modifying CTEs that Drizzle's builder cannot
// express): read the rows whichever driver ran them, and pass rows in as one JSON parameter.
import { randomUUID } from 'node:crypto';
import { sql, type Column, type SQL } from 'drizzle-orm';
import type { RecordAuditInput } from './audit';
import { storableJson } from './storable-json';

/**
 * A row of a hand-written statement (database column names) as Drizzle would map it: each of
 * `columns` read by its database name and mapped from the driver's value (timestamps arrive as text).
 */
export function rowOfColumns<T>(columns: Record<string, Column>, raw: Record<string, unknown>): T {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(columns)) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value as never);
  }
  return row as T;
}

/** PGlite and node-postgres both return `{ rows }` from `db.execute`. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Audit rows as one JSON parameter for `auditRecordset`, ids filled in. */
export function auditRowsJson(entries: RecordAuditInput[]): string {
  return storableJson(
    entries.map((entry) => ({
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
    })),
  );
}

/** `jsonb_to_recordset(...) AS a(...)`: audit rows (auditRowsJson, or a placeholder for it) as a relation, for INSERT ... SELECT. */
export function auditRecordset(rows: unknown): SQL {
  return sql`jsonb_to_recordset(${rows}::jsonb) AS a(id text, at timestamptz, kind text, run_id text, session_id text,
    agent_id text, tool text, params jsonb, action text, reason text, rule jsonb, decided_by text, wait_ms bigint, details jsonb)`;
}
