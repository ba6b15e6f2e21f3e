// Recovery and adoption: runs that were running or waiting and that nobody executes continue here.
// One run that cannot be resumed fails alone: the others are resumed all the same.
import type { ModelMessage } from 'ai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { AgentRun } from '../../agent';
import { isLiveStatus, LIVE_RUN_STATUSES } from '../../contract';
import type { Queries } from '../../db';
import type { ToolSelection } from '../agents/agent-profiles';
import type { RunAgents } from '../agents/run-agents';
import { isDatabaseUnreachable } from '../http/errors';
import { loadPolicy, type StoredPolicy } from '../stores/policy-store';
import { mainOrigin } from './run-control';
import type { LiveRun } from './run-decisions';
import type { RunLog } from './run-log';
import { cancelStrayRelays, finalReply, finishEnded, resumePointOf } from './run-resume';

/** What recovery needs of the run manager. */
export interface RunRecoveryDeps {
  q: Queries;
  modelName: string;
  log: RunLog;
  agents: RunAgents;
  /** The runs executing in this process. */
  live: ReadonlyMap<string, LiveRun>;
  /** The runs being resumed right now (so one recovery pass does not resume a run twice). */
  claiming: Set<string>;
  /** Several instances: only the runs nobody holds a live lease of are candidates. */
  clustered: boolean;
  fence: { leaseOwner?: string };
  acquireLease(runId: string): Promise<boolean>;
  releaseLease(runId: string): Promise<void>;
  /** Runs `fn` outside the calling request's async context. */
  outsideRequest<T>(fn: () => T): T;
  checkpoint(runId: string, permissions: unknown, tools: string[]): (messages: ModelMessage[]) => Promise<void>;
  execute(run: AgentRun, stored: StoredPolicy, owner: string | null): void;
  report(error: Error): void;
}

/**
 * After a restart, and (several instances) periodically: every run that was running or waiting
 * and that nobody executes continues from its last checkpoint. Its relays are still in the
 * database (and their deadlines kept running); a call that had started executing is not run again.
 */
export async function recoverRuns(deps: RunRecoveryDeps): Promise<string[]> {
  const { q } = deps;
  const resumed: string[] = [];
  // Several instances: only the runs nobody holds a live lease of (another instance executes the rest).
  const ids = deps.clustered
    ? (await q.leases.listTakeoverCandidates({ limit: 200 })).map((c) => c.runId)
    : (
        await Promise.all(
          LIVE_RUN_STATUSES.map(async (status) =>
            (await q.runs.listRuns({ status, source: 'agent', limit: 200 })).items.map((row) => row.id),
          ),
        )
      ).flat();
  for (const id of ids) {
    if (deps.live.has(id) || deps.claiming.has(id)) continue;
    deps.claiming.add(id);
    try {
      if (await resumeRun(deps, id)) resumed.push(id);
    } catch (error) {
      await failResume(deps, id, error as Error);
    } finally {
      deps.claiming.delete(id);
    }
  }
  return resumed;
}

/** Resumes a run here; false when another instance holds its lease. */
async function resumeRun(deps: RunRecoveryDeps, runId: string): Promise<boolean> {
  const { q } = deps;
  if (!(await deps.acquireLease(runId))) return false;
  const row = await q.runs.getRun({ id: runId });
  // Finished meanwhile (between the listing and the lease), or an outside agent's run (never resumed).
  if (!row || !isLiveStatus(row.status) || row.source !== 'agent') {
    await deps.releaseLease(runId);
    return false;
  }
  const messages = (row.state.messages ?? []) as ModelMessage[];
  const permissions = row.state.permissions;
  const toolNames = Array.isArray(row.state.tools) ? (row.state.tools as string[]) : undefined;
  // The tools and model the run started with; a profile or model gone since fails the run, not the boot.
  let selection: ToolSelection;
  let model: LanguageModelV4;
  try {
    selection = deps.agents.select(row.agent ?? undefined, toolNames);
    model = deps.agents.modelFor(row.model ?? deps.modelName);
  } catch (error) {
    await q.runs.updateRun({
      id: runId,
      status: 'failed',
      state: { ...row.state, error: (error as Error).message },
      ...deps.fence,
    });
    await deps.releaseLease(runId);
    return true;
  }
  // The loop had ended (its answer is checkpointed) but its `done` was not stored: finish it,
  // never ask the model again (it would repeat the conversation's last request).
  const reply = finalReply(messages);
  if (reply !== undefined) {
    await finishEnded(
      { q, append: (events, options) => deps.log.append(runId, events, { ...options, ...deps.fence }) },
      runId,
      messages,
      reply,
    );
    await deps.releaseLease(runId);
    return true;
  }
  const stored = await loadPolicy(q);
  const resumePoint = await resumePointOf(
    { q, append: (events, audit) => deps.log.append(runId, events, { audit, ...deps.fence }) },
    runId,
    messages,
  );
  await cancelStrayRelays(q, runId, resumePoint);
  // Announced before the run continues: its first event must come after `resumed` (with
  // PostgreSQL's pool the two appends would otherwise race).
  await deps.log.append(runId, [{ ...mainOrigin(runId), type: 'resumed' }], deps.fence);
  deps.outsideRequest(() => {
    const run = deps.agents.agentFor(selection, model, row.model ?? deps.modelName).invoke({
      messages,
      permissions,
      runId,
      sessionId: row.sessionId,
      mode: row.mode ?? undefined,
      resume: resumePoint,
      checkpoint: deps.checkpoint(runId, permissions, selection.toolNames),
    });
    deps.execute(run, stored, row.owner ?? null);
  });
  return true;
}

/**
 * A run whose resume threw (permissions stored by an older version that no longer validate, a
 * broken checkpoint): reported, ended as failed with its waiting relays cancelled, its lease
 * released. A database that cannot be reached fails nothing: the run is resumed once it answers.
 */
async function failResume(deps: RunRecoveryDeps, runId: string, error: Error): Promise<void> {
  deps.report(new Error(`Run ${runId} could not be resumed: ${error.message}`));
  if (!isDatabaseUnreachable(error)) {
    const { q } = deps;
    const origin = mainOrigin(runId);
    await deps.log
      .append(
        runId,
        [
          { ...origin, type: 'error', message: 'Resuming the run failed; it was stopped.' },
          { ...origin, type: 'done', finishReason: 'error', text: '' },
        ],
        { status: { to: 'failed', ifStatus: [...LIVE_RUN_STATUSES] }, ...deps.fence },
      )
      .catch(() => q.runs.updateRun({ id: runId, status: 'failed', ifStatus: [...LIVE_RUN_STATUSES], ...deps.fence }))
      .catch((failed: Error) => deps.report(failed));
    for (const relay of await q.relays.listPendingRelays({ runId }).catch(() => []))
      await q.relays
        .resolveRelay({
          id: relay.id,
          status: 'cancelled',
          reason: 'The run could not be resumed',
          decidedBy: 'system',
        })
        .catch(() => undefined);
  }
  await deps.releaseLease(runId).catch((failed: Error) => deps.report(failed));
}
