// Control of a run wherever it executes: cancel it, switch its mode. Executed here: the copy is
// told directly. Executed by another instance: the change is stored and that instance is told
// (NOTIFY; it also sees it at its next lease renewal). Executed nowhere (between a crash and its
// adoption): it is ended here, under its lease.
import type { ModelMessage } from 'ai';
import { isLiveStatus, LIVE_RUN_STATUSES } from '../../contract';
import type { Queries } from '../../db';
import type { Mode } from '../../policy';
import type { DurableRelayBroker } from '../../relay';
import { announceRunChange } from '../cluster/cluster';
import type { PgNotifyBus } from '../cluster/pg-notify';
import { AppError } from '../http/errors';
import type { LiveRun } from './run-decisions';
import type { RunLog } from './run-log';

export interface RunControlDeps {
  q: Queries;
  broker: DurableRelayBroker;
  log: RunLog;
  /** The runs executing in this process. */
  live: ReadonlyMap<string, LiveRun>;
  /** Several instances: the bus the others hear changes on. */
  bus?: PgNotifyBus;
  fence: { leaseOwner?: string };
  acquireLease(runId: string): Promise<boolean>;
  releaseLease(runId: string): Promise<void>;
  report(error: Error): void;
}

/**
 * Cancels a run wherever it executes. Here: the run is stopped and ends as cancelled. Executed by
 * another instance: the status is stored and that instance is told (it also sees the status at
 * its next lease renewal). Executed nowhere (between a crash and its adoption): it is ended here,
 * under its lease, with a `done` event so its streams close.
 */
export async function cancelRun(deps: RunControlDeps, runId: string): Promise<void> {
  const { q, bus } = deps;
  const local = deps.live.get(runId);
  if (local && !local.detached) return local.run.cancel();
  const row = await q.runs.getRun({ id: runId });
  if (!row) throw new AppError('not_found:run', 404, 'No such run');
  if (!isLiveStatus(row.status)) return;
  if (bus && !(await deps.acquireLease(runId))) {
    await q.runs.updateRun({ id: runId, status: 'cancelled', ifStatus: [...LIVE_RUN_STATUSES] });
    await announceRunChange(bus, runId, 'control').catch((error: Error) => deps.report(error));
    await deps.broker.cancelRun(runId);
    return;
  }
  try {
    const cancelled = await q.runs.updateRun({
      id: runId,
      status: 'cancelled',
      ifStatus: [...LIVE_RUN_STATUSES],
      ...deps.fence,
    });
    if (!cancelled) return;
    await deps.broker.cancelRun(runId);
    await deps.log.append(
      runId,
      [{ ...mainOrigin(runId), type: 'done', finishReason: 'cancelled', text: '' }],
      deps.fence,
    );
  } finally {
    await deps.releaseLease(runId);
  }
}

/**
 * Switches a run's mode (e.g. "Approve all for this session" → bypassPermissions). Applies to the
 * run's next decisions, wherever it executes; a call already waiting stays waiting for its answer.
 */
export async function setRunMode(
  deps: RunControlDeps,
  runId: string,
  mode: Mode,
): Promise<{ runId: string; mode: Mode }> {
  const row = await deps.q.runs.updateRun({ id: runId, mode, ifStatus: [...LIVE_RUN_STATUSES] });
  if (!row) {
    const existing = await deps.q.runs.getRun({ id: runId });
    if (!existing) throw new AppError('not_found:run', 404, 'No such run');
    throw new AppError('conflict:run_finished', 409, `The run is ${existing.status}; its mode can no longer change`, {
      status: existing.status,
    });
  }
  const local = deps.live.get(runId);
  if (local) local.run.setMode(mode);
  else if (deps.bus) await announceRunChange(deps.bus, runId, 'control').catch((error: Error) => deps.report(error));
  await deps.log.append(runId, [{ ...mainOrigin(runId), type: 'mode_changed', mode }]);
  return { runId, mode };
}

/** Where the server's own events of a run come from: its main agent. */
export function mainOrigin(runId: string) {
  return { runId, agentId: 'main', parents: [] as string[] };
}

export function firstUserText(messages: ModelMessage[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return '';
  return typeof last.content === 'string'
    ? last.content
    : last.content.map((p) => ('text' in p ? p.text : '')).join(' ');
}
