// The audit rows of an outside session's run (ExternalGate): every row carries the session's
// details. A record deferred past its answer (deferred-records.ts) carries what its rows are made
// from instead of the rows (`auditFrom`): they are made when it is stored, off the call's path, with
// the decision's time and an id fixed when it was decided, so a record stored again after a restart
// (its journal) is recognised by that id and never audited twice.
import { randomUUID } from 'node:crypto';
import type { RunEvent } from '../../contract';
import type { RecordAuditInput } from '../../db';
import type { RelayRequest } from '../../relay';
import { auditRowsFor, type AskedCall, type AuditedPolicy } from '../runs/run-audit';

/** What the audit needs of an outside session's run. */
export interface AuditedOutsideRun {
  id: string;
  sessionId: string;
  source: string;
  externalId: string | null;
  title: string | null;
}

/** What a deferred record's audit rows are made from, for its first `events` events (`deferredAudit`). */
export interface AuditSource {
  run: AuditedOutsideRun;
  policy: AuditedPolicy;
  events: number;
  /** When the call was decided (ISO). */
  at: string;
  /** The first row's id; the next ones are `<id>.<n>`. */
  id: string;
}

/** The audit rows of a run's events, with the outside session's details. */
export function auditOf(
  run: AuditedOutsideRun,
  events: readonly RunEvent[],
  policy: AuditedPolicy,
  asked?: RelayRequest,
): RecordAuditInput[] {
  const askedCalls = new Map<string, AskedCall>();
  if (asked) askedCalls.set(asked.id, { createdAt: asked.createdAt, tool: asked.tool, params: asked.params });
  return events.flatMap((event) =>
    auditRowsFor({ runId: run.id, sessionId: run.sessionId }, event, askedCalls, policy).map((row) => ({
      ...row,
      details: { ...(row.details ?? {}), source: run.source, session: run.externalId, cwd: run.title },
    })),
  );
}

/** Fixes, at decision time, what the rows of `events` will be made from when they are stored. */
export function auditSource(
  run: AuditedOutsideRun,
  events: readonly RunEvent[],
  policy: AuditedPolicy,
  now = new Date(),
): AuditSource {
  const { id, sessionId, source, externalId, title } = run;
  return {
    run: { id, sessionId, source, externalId, title },
    policy: { version: policy.version, rules: policy.rules },
    events: events.length,
    at: now.toISOString(),
    id: randomUUID(),
  };
}

/** The rows made from `source` for the record's events: the same on every store of the record. */
export function deferredAudit(
  source: AuditSource,
  events: readonly RunEvent[],
): (RecordAuditInput & { id: string; at: Date })[] {
  const at = new Date(source.at);
  return auditOf(source.run, events.slice(0, source.events), source.policy).map((row, index) => ({
    ...row,
    id: index === 0 ? source.id : `${source.id}.${index}`,
    at,
  }));
}

/** The ids of a record's audit rows, those it carries and the first of those it makes: any stored means all are. */
export const auditIds = (record: { audit: readonly { id: string }[]; auditFrom?: AuditSource }): string[] => [
  ...record.audit.map((row) => row.id),
  ...(record.auditFrom ? [record.auditFrom.id] : []),
];
