// A run's status (one list: the database's CHECK constraint, the API's filter and the UI read it)
// and the run DTOs the browser reads: GET /api/runs (summaries) and GET /api/runs/:id (detail).
import { z } from 'zod';
import { ModeSchema } from '../policy/types';
import { RelayRequestSchema } from './relay';

export const RUN_STATUSES = ['running', 'waiting', 'done', 'failed', 'cancelled'] as const;
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** Who executes a run's tools: Gatehouse's own agent, or an outside agent through a hook or MCP (it only asks the gate). */
export const RUN_SOURCES = ['agent', 'hook', 'mcp'] as const;
export const RunSourceSchema = z.enum(RUN_SOURCES);
export type RunSource = z.infer<typeof RunSourceSchema>;

/** A run that may still do something: it is executed (under a lease, with several instances) and resumed after a restart. */
export const LIVE_RUN_STATUSES = ['running', 'waiting'] as const satisfies readonly RunStatus[];

export function isLiveStatus(status: string): boolean {
  return (LIVE_RUN_STATUSES as readonly string[]).includes(status);
}

export function isFinishedStatus(status: string): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}

export const RUN_STATUS_LABELS: Record<RunStatus, string> = {
  running: 'running',
  waiting: 'waiting for approval',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

/** One row of GET /api/runs: the run without its resumable state. Times are ISO strings. */
export const RunSummarySchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  status: RunStatusSchema,
  mode: ModeSchema.nullable(),
  agent: z.string().nullable(),
  model: z.string().nullable(),
  title: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type RunSummary = z.infer<typeof RunSummarySchema>;

/** The run in GET /api/runs/:id: the summary plus what the chat reopens it from. */
export const RunRecordSchema = RunSummarySchema.extend({
  lastEventSeq: z.number().int(),
  state: z.looseObject({ messages: z.array(z.unknown()).optional() }),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

export const RunDetailSchema = z.object({
  run: RunRecordSchema,
  pendingRelays: z.array(RelayRequestSchema),
  /** Executing on the server that answered (a finished status may still have events to come). */
  live: z.boolean(),
  /** The username of who started the run (the approval dialog names them on someone else's run). */
  startedBy: z.string().nullable().optional(),
});
export type RunDetail = z.infer<typeof RunDetailSchema>;
