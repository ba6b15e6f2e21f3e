// The append-only event log of a run. Each event gets the run's next seq (gapless, unique, safe
// under concurrent appends); readers resume after the last seq they saw (SSE Last-Event-ID).
// An append is ONE statement: the run row's counter is bumped (its row lock serializes appenders)
// and the events inserted with the numbers it returned; a failed statement takes its numbers back.
// The same statement can change the run's status and record audit rows, so the state an event
// announces is stored together with it, in one round trip (PGlite runs statements one at a time).
import { and, asc, eq, gt, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { RecordAuditInput } from './audit';
import type { Database } from './database';
import { RunNotFoundError } from './errors';
import { fenceFailure, leaseHeldBy } from './lease-fence';
import { events, type EventRow, type RunStatus } from './schema';
import { compiledStatement, type Slots } from './prepared';
import { auditRecordset, auditRowsJson } from './statement';
import { storableJson } from './storable-json';

export interface NewEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface ListEventsInput {
  runId: string;
  afterSeq?: number;
  limit?: number;
}

/** Stored in the same statement as the events (all or nothing). */
export interface AppendEffects {
  /** Sets the run's status, if it is currently one of `ifStatus` (any status when omitted). */
  status?: { to: RunStatus; ifStatus?: RunStatus[] };
  /** Audit rows recorded with the events. */
  audit?: RecordAuditInput[];
  /**
   * The executor's lease fence (several instances): store only while this owner holds the run's
   * lease, else throw LeaseLostError and store nothing.
   */
  leaseOwner?: string;
  /**
   * Several instances: `NOTIFY <channel> {"runId", "seq"}` (the last seq appended) from the same
   * statement, so the news leaves with the commit that stored the events, never before it.
   */
  notifyChannel?: string;
  /**
   * Stores a claimed tool execution's result (tool-executions.ts: `claimed` -> `done`) in the same
   * statement as the events that report it, so a result is never recorded without its claim
   * finished nor the other way round. An execution that is not claimed (or done) is left as it is.
   */
  finishExecution?: { toolCallId: string; result: unknown };
  /**
   * Claims a tool execution (tool-executions.ts) in the same statement as the events that decide
   * it, for an outside call allowed at once: the decision and its claim are stored together.
   * `appendEventsClaiming` says whether this statement won the claim. With `finishExecution` of
   * the same call the claim is stored finished (a call that ran before its claim was stored).
   */
  claimExecution?: { toolCallId: string };
}

export interface AppendEventsInput extends AppendEffects {
  runId: string;
  events: NewEvent[];
}

export function eventQueries(db: Database) {
  /** Appends in order, in one statement. Throws RunNotFoundError for an unknown run (and stores nothing). */
  async function appendEvents(input: AppendEventsInput): Promise<EventRow[]> {
    return (await appendEventsClaiming(input)).rows;
  }

  /** appendEvents, and whether its `claimExecution` won the claim (false without one). */
  async function appendEventsClaiming({
    runId,
    events: batch,
    status,
    audit,
    leaseOwner,
    notifyChannel,
    finishExecution,
    claimExecution,
  }: AppendEventsInput): Promise<{ rows: EventRow[]; claimed: boolean }> {
    if (batch.length === 0 && !status && !audit?.length && !claimExecution) return { rows: [], claimed: false };
    // Claimed and finished in one statement: its CTEs see one snapshot, so the claim is inserted done.
    const claimDone = claimExecution !== undefined && finishExecution?.toolCallId === claimExecution.toolCallId;
    const shape: AppendShape = {
      audit: Boolean(audit?.length),
      status: status ? (status.ifStatus ? [...status.ifStatus] : 'any') : undefined,
      fenced: leaseOwner !== undefined,
      notify: notifyChannel !== undefined,
      finish: finishExecution !== undefined && !claimDone,
      claim: claimExecution !== undefined,
      claimDone,
    };
    // A tool's output may hold what jsonb refuses (a NUL): stored as U+FFFD, never the record lost.
    const batchJson = storableJson(batch);
    const rows = await appendStatement(shape)<RawRow>(db, {
      runId,
      count: batch.length,
      batch: batchJson,
      audit: audit?.length ? auditRowsJson(audit) : null,
      to: status?.to ?? null,
      leaseOwner: leaseOwner ?? null,
      channel: notifyChannel ?? null,
      finishCall: finishExecution?.toolCallId ?? null,
      finishResult: finishExecution ? storableJson(finishExecution.result ?? null) : null,
      claimCall: claimExecution?.toolCallId ?? null,
    });
    if (!rows.some((row) => row.row_kind === 'run'))
      throw leaseOwner === undefined ? new RunNotFoundError(runId) : await fenceFailure(db, runId, leaseOwner);
    return {
      rows: eventRows(runId, batchJson, rows),
      claimed: rows.some((row) => row.row_kind === 'claimed'),
    };
  }

  return {
    appendEvents,
    appendEventsClaiming,

    async appendEvent({
      runId,
      type,
      data,
      ...effects
    }: { runId: string } & NewEvent & AppendEffects): Promise<EventRow> {
      const [row] = await appendEvents({ runId, events: [{ type, data }], ...effects });
      return row!;
    },

    /** In seq order. */
    async listEvents({ runId, afterSeq, limit }: ListEventsInput): Promise<EventRow[]> {
      const query = db
        .select()
        .from(events)
        .where(and(eq(events.runId, runId), afterSeq === undefined ? undefined : gt(events.seq, afterSeq)))
        .orderBy(asc(events.seq));
      return limit === undefined ? query : query.limit(limit);
    },
  };
}

export type EventQueries = ReturnType<typeof eventQueries>;

/** What the append's statement returns: per event its seq and time (its type and data are the batch's). */
interface RawRow {
  row_kind: 'event' | 'run' | 'notified' | 'claimed';
  seq: number;
  created_at: string | Date | null;
}

/** What an append's statement looks like; each shape is built once and then only filled in (prepared.ts). */
interface AppendShape {
  audit: boolean;
  /** Set the status: whatever it was ('any'), or only from one of these. */
  status: RunStatus[] | 'any' | undefined;
  fenced: boolean;
  notify: boolean;
  /** Finish a claimed tool execution (finishExecution). */
  finish: boolean;
  /** Claim a tool execution (claimExecution). */
  claim: boolean;
  /** The claim is stored finished, with finishExecution's result (claim and finish of one call). */
  claimDone: boolean;
}

interface AppendValues extends Record<string, unknown> {
  runId: string;
  count: number;
  batch: string;
  audit: string | null;
  to: RunStatus | null;
  leaseOwner: string | null;
  channel: string | null;
  finishCall: string | null;
  finishResult: string | null;
  claimCall: string | null;
}

const APPEND_KEYS = [
  'runId',
  'count',
  'batch',
  'audit',
  'to',
  'leaseOwner',
  'channel',
  'finishCall',
  'finishResult',
  'claimCall',
] as const;
const appendStatements = new Map<string, ReturnType<typeof compiledStatement<AppendValues>>>();

function appendStatement(shape: AppendShape) {
  const key = JSON.stringify(shape);
  let statement = appendStatements.get(key);
  if (!statement) {
    statement = compiledStatement<AppendValues>(APPEND_KEYS, (_db, v) => appendSql(shape, v));
    appendStatements.set(key, statement);
  }
  return statement;
}

function appendSql(shape: AppendShape, v: Slots<AppendValues>): SQL {
  const statusSet =
    shape.status === undefined ? sql`` : statusAssignment(v.to, shape.status === 'any' ? undefined : shape.status);
  const auditCte = shape.audit
    ? sql`, audited AS (INSERT INTO audit (id, at, kind, run_id, session_id, agent_id, tool, params, action, reason, rule, decided_by, wait_ms, details)
          SELECT a.id, coalesce(a.at, now()), a.kind, a.run_id, a.session_id, a.agent_id, a.tool, a.params, a.action, a.reason, a.rule, a.decided_by, a.wait_ms, a.details
          FROM run, ${auditRecordset(v.audit)} RETURNING 1)`
    : sql``;
  // FROM run: nothing is finished when the run's update is fenced off (lease lost) or missing.
  const finishCte = shape.finish
    ? sql`, finished AS (UPDATE tool_executions SET status = 'done', result = ${v.finishResult}::jsonb, finished_at = now()
          FROM run WHERE tool_executions.run_id = ${v.runId} AND tool_executions.tool_call_id = ${v.finishCall} AND tool_executions.status = 'claimed' RETURNING 1)`
    : sql``;
  // FROM run: nothing is claimed when the run's update is fenced off or missing.
  const claimCte = shape.claimDone
    ? sql`, claimed AS (INSERT INTO tool_executions (run_id, tool_call_id, status, result, finished_at)
          SELECT ${v.runId}, ${v.claimCall}, 'done', ${v.finishResult}::jsonb, now() FROM run ON CONFLICT DO NOTHING RETURNING 1)`
    : shape.claim
      ? sql`, claimed AS (INSERT INTO tool_executions (run_id, tool_call_id)
          SELECT ${v.runId}, ${v.claimCall} FROM run ON CONFLICT DO NOTHING RETURNING 1)`
      : sql``;
  const fence = shape.fenced ? sql` AND ${leaseHeldBy(v.runId as string, v.leaseOwner as string)}` : sql``;
  return sql`
      WITH run AS (
        UPDATE runs SET last_event_seq = last_event_seq + ${v.count}::int${statusSet}
        WHERE id = ${v.runId}${fence}
        RETURNING last_event_seq
      )${auditCte}${finishCte}${claimCte},
      batch AS (
        SELECT b.e ->> 'type' AS type, b.e -> 'data' AS data, b.ord
        FROM jsonb_array_elements(${v.batch}::jsonb) WITH ORDINALITY AS b(e, ord)
      ),
      inserted AS (
        INSERT INTO events (run_id, seq, type, data)
        SELECT ${v.runId}, run.last_event_seq - ${v.count}::int + batch.ord::int, batch.type, batch.data
        FROM run, batch
        RETURNING seq, created_at
      )${
        shape.notify
          ? sql`,
      announced AS (
        SELECT pg_notify(${v.channel}, json_build_object('runId', ${v.runId}::text, 'seq', max(seq))::text) FROM inserted HAVING count(*) > 0
      )`
          : sql``
      }
      SELECT 'event' AS row_kind, seq, created_at FROM inserted
      UNION ALL
      SELECT 'run', last_event_seq, NULL FROM run${
        shape.claim
          ? sql`
      UNION ALL
      SELECT 'claimed', NULL, NULL FROM claimed`
          : sql``
      }${
        shape.notify
          ? sql`
      UNION ALL
      SELECT 'notified', NULL, NULL FROM announced`
          : sql``
      }
    `;
}

function statusAssignment(to: RunStatus | Placeholder | null, ifStatus: RunStatus[] | undefined): SQL {
  if (!ifStatus) return sql`, status = ${to}, updated_at = now()`;
  if (ifStatus.length === 0) return sql``;
  const allowed = sql.join(
    ifStatus.map((s) => sql`${s}`),
    sql`, `,
  );
  return sql`, status = CASE WHEN status IN (${allowed}) THEN ${to} ELSE status END,
    updated_at = CASE WHEN status IN (${allowed}) THEN now() ELSE updated_at END`;
}

/**
 * The appended events in seq order. Their type and data are read back from the batch's JSON, not
 * returned by the statement: the same values as stored (the JSON the database parsed), without the
 * database writing each event out again and the driver parsing it (about a tenth of an append's
 * CPU on PGlite). Only key order can differ from a later read (jsonb orders keys by length).
 */
function eventRows(runId: string, batchJson: string, rows: RawRow[]): EventRow[] {
  const inserted = rows.filter((row) => row.row_kind === 'event').sort((a, b) => Number(a.seq) - Number(b.seq));
  if (inserted.length === 0) return [];
  const batch = JSON.parse(batchJson) as NewEvent[];
  return inserted.map((row, i) => ({
    runId,
    seq: Number(row.seq),
    type: batch[i]!.type,
    data: batch[i]!.data,
    // The drivers hand timestamps over as text (Drizzle's parsers): map them as Drizzle would.
    createdAt: events.createdAt.mapFromDriverValue(row.created_at as string) as Date,
  }));
}
