// The one place events are read from a run's log (lib/server/runs/run-log.ts, run-resume.ts): a row in
// any shape an earlier version stored becomes today's event. Earlier versions stored `text.delta`,
// `tool_call.tool`, `tool_result.tool`, a `relay` nested under `relay`, and some rows without
// `runId`, `agentId` or `parents`. Pure, and total: a row it does not know passes through.
import type { LoggedEvent } from './events';

export interface StoredEventRow {
  runId: string;
  seq: number;
  type: string;
  data: unknown;
}

type Data = Record<string, unknown>;

const isObject = (value: unknown): value is Data =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function upgradeStoredEvent(row: StoredEventRow): LoggedEvent {
  const data: Data = isObject(row.data) ? { ...row.data } : {};
  if (row.type === 'text' && data.content === undefined && typeof data.delta === 'string') data.content = data.delta;
  if (
    (row.type === 'tool_call' || row.type === 'tool_result') &&
    data.name === undefined &&
    typeof data.tool === 'string'
  )
    data.name = data.tool;
  if (row.type === 'text') delete data.delta;
  if (row.type === 'tool_call' || row.type === 'tool_result') delete data.tool;
  let body = data;
  if (row.type === 'relay' && isObject(data.relay)) {
    // The nested request is the relay's own record; the event's origin fields agree with it.
    const { relay, ...rest } = data;
    body = { ...rest, ...relay };
  }
  return {
    ...body,
    type: row.type,
    runId: typeof body.runId === 'string' ? body.runId : row.runId,
    agentId: typeof body.agentId === 'string' ? body.agentId : 'main',
    parents: Array.isArray(body.parents) ? body.parents : [],
    seq: row.seq,
  } as LoggedEvent;
}
