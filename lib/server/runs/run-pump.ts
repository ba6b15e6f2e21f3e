// The pump: reads one executing run's events and stores each before anyone hears of it. Text
// deltas are batched into one row per stretch of text; a call that asks is stored together with its
// relay (one statement, so the relay reaches the client one round trip sooner); the run's status
// and the audit rows an event calls for go into the same statement as the event.
// Several instances: every write carries the lease fence, so a copy of a run that another instance
// took over stores nothing more (the pump ends with 'lost', and the caller detaches the copy).
import type { AgentEvent, AgentRun } from '../../agent';
import { LIVE_RUN_STATUSES, type RunEvent } from '../../contract';
import type { AppendEffects, Queries, RecordAuditInput } from '../../db';
import { isDatabaseUnreachable } from '../http/errors';
import { auditRowsFor, type AskedCall } from './run-audit';
import type { RunLog } from './run-log';

export interface PumpOptions {
  run: AgentRun;
  log: RunLog;
  runs: Queries['runs'];
  /** The policy version the run decides with (recorded on the audit rows). */
  policyVersion: number;
  /** How many of the run's policy rules are the stored policy's (the rest are its own permissions). */
  policyRules: number;
  /** Several instances: this instance's id, the lease fence of every write. */
  leaseOwner?: string;
}

/**
 * How the pump ended: the event stream ended (the run finished, or was detached: what it emitted
 * before is stored), its lease was lost or the database could not be reached (nothing more could be
 * stored: the caller detaches the copy), or storing failed otherwise (the run was ended as failed).
 */
export type PumpEnd = 'ended' | 'lost' | 'unreachable' | { failed: Error };

export async function pumpRun({
  run,
  log,
  runs,
  policyVersion,
  policyRules,
  leaseOwner,
}: PumpOptions): Promise<PumpEnd> {
  const policy = { version: policyVersion, rules: policyRules };
  const fence = leaseOwner === undefined ? {} : { leaseOwner };
  const pending = new Set<string>();
  const asked = new Map<string, AskedCall>();
  let text = '';
  const flushText = async () => {
    if (!text) return;
    const content = text;
    text = '';
    await log.append(run.runId, [{ type: 'text', runId: run.runId, agentId: 'main', parents: [], content }], fence);
  };
  try {
    const events = run[Symbol.asyncIterator]();
    for (let next = await events.next(); !next.done; next = await events.next()) {
      const event = next.value;
      const chunk = mainText(event);
      if (chunk !== undefined) {
        text += chunk;
        continue;
      }
      await flushText();
      const batch = [event];
      if (event.type === 'tool_call' && event.decision?.action === 'ask') {
        const follower = await events.next();
        if (!follower.done) batch.push(follower.value);
      }
      const rows: RunEvent[] = [];
      const audit: RecordAuditInput[] = [];
      let status: AppendEffects['status'];
      for (const item of batch) {
        const itemChunk = mainText(item);
        if (itemChunk !== undefined) {
          text += itemChunk;
          continue;
        }
        if (item.type === 'relay') {
          pending.add(item.id);
          status = { to: 'waiting', ifStatus: [...LIVE_RUN_STATUSES] };
        } else if (item.type === 'relay_resolved') {
          pending.delete(item.relayId);
          if (pending.size === 0) status = { to: 'running', ifStatus: ['waiting'] };
        } else if (item.type === 'done' && item.agentId === 'main' && item.parents.length === 0) {
          const result = await run.result;
          await runs.updateRun({ id: run.runId, state: { messages: result.messages }, ...fence });
          // With the `done` event; a run already ended elsewhere (cancelled through another instance) keeps its status.
          const final =
            item.finishReason === 'cancelled' ? 'cancelled' : item.finishReason === 'error' ? 'failed' : 'done';
          status = { to: final, ifStatus: [...LIVE_RUN_STATUSES] };
        }
        audit.push(...auditRowsFor(run, item, asked, policy));
        rows.push(serialize(item));
      }
      await log.append(run.runId, rows, { status, audit, ...fence });
    }
    await flushText();
    return 'ended';
  } catch (error) {
    if (isLeaseLost(error)) return 'lost';
    // The database went away mid-append (or its connection did): nothing can be recorded now, and
    // the statement may or may not have been stored. The copy stops here without settling anything;
    // the run keeps its status and checkpoint, and is continued from the log once the database
    // answers (the takeover scan adopts it when its lease lapses).
    if (isDatabaseUnreachable(error)) return 'unreachable';
    // Anything else: stop the run (pending relays become denials), mark it failed and end its log;
    // the conversation is kept, and no driver or SQL text reaches a client.
    run.cancel();
    const origin = { runId: run.runId, agentId: 'main', parents: [] };
    await log
      .append(
        run.runId,
        [
          { ...origin, type: 'error', message: 'Storing the run failed; it was stopped.' },
          { ...origin, type: 'done', finishReason: 'error', text: '' },
        ],
        { status: { to: 'failed', ifStatus: [...LIVE_RUN_STATUSES] }, ...fence },
      )
      .catch(() => runs.updateRun({ id: run.runId, status: 'failed', ifStatus: [...LIVE_RUN_STATUSES], ...fence }))
      .catch(() => undefined);
    return { failed: error as Error };
  }
}

/** LeaseLostError of lib/db, matched by code (one class can exist twice in a Next process). */
export function isLeaseLost(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'conflict:lease_lost';
}

/** The main agent's chunk of text, if the event is one (a subagent's text is stored as its own event). */
function mainText(event: AgentEvent): string | undefined {
  return event.type === 'text' && event.agentId === 'main' && event.parents.length === 0 ? event.content : undefined;
}

/** The event as stored: a relay without its `respond` callback. */
function serialize(event: AgentEvent): RunEvent {
  if (event.type === 'relay') {
    const { respond: _respond, ...rest } = event;
    return rest;
  }
  return event;
}
