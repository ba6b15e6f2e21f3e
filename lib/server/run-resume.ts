// Where a run continues after a restart or a takeover: the calls of its last step, with the relays
// they raised and the results they produced (from the event log and the tool-call claims). A call
// that had started executing but announced no result may have run, so it is never run again: the
// model is told it was interrupted. Relays of the run that the resumed step does not wait for
// (raised by a copy that was cut off, or by a subagent that was interrupted) are cancelled, so no
// approval is left pending that nothing would act on.
import type { ModelMessage } from 'ai';
import type { ModelToolCall, ResumePoint } from '../agent';
import { toRelayRecord, type Queries, type RecordAuditInput } from '../db';
import type { RelayRequest } from '../relay';
import { auditParams } from './run-audit';
import type { NewRunEvent } from './run-log';

export interface ResumeDeps {
  q: Queries;
  /** Stores events of the run (with their audit rows): the interrupted calls' results, decisions not yet logged. */
  append(events: NewRunEvent[], audit?: RecordAuditInput[]): Promise<void>;
}

/** The last step's calls, relays and results; undefined when the run stopped between steps. */
export async function resumePointOf(deps: ResumeDeps, runId: string, messages: ModelMessage[]): Promise<ResumePoint | undefined> {
  const last = messages.at(-1);
  if (!last || last.role !== 'assistant' || typeof last.content === 'string') return undefined;
  const calls = toolCallsOf(last);
  if (calls.length === 0) return undefined;
  return reconcileStep(deps, runId, calls);
}

/**
 * For a conversation that already ended (see finalReply): stores what the log lost of its last
 * step with tool calls (their decisions and results, from the relays and the execution log).
 */
export async function reconcileLastStep(deps: ResumeDeps, runId: string, messages: ModelMessage[]): Promise<void> {
  const step = [...messages].reverse().find((m) => m.role === 'assistant' && toolCallsOf(m).length > 0);
  if (step) await reconcileStep(deps, runId, toolCallsOf(step));
}

function toolCallsOf(message: ModelMessage): ModelToolCall[] {
  if (message.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.flatMap((part) => (part.type === 'tool-call' ? [{ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input }] : []));
}

/** The calls' relays and results from the log, completed from the execution log (stored, and decisions audited). */
async function reconcileStep({ q, append }: ResumeDeps, runId: string, calls: ModelToolCall[]): Promise<ResumePoint> {
  const ids = new Set(calls.map((c) => c.toolCallId));
  const relays: ResumePoint['relays'] = {};
  const results: ResumePoint['results'] = {};
  const logged = new Set<string>();
  for (const event of await q.events.listEvents({ runId })) {
    const data = event.data as Record<string, unknown>;
    if (data.agentId !== 'main') continue;
    if (event.type === 'relay_resolved') logged.add(data.relayId as string);
    else if (event.type === 'relay') {
      const relay = data.relay as RelayRequest;
      if (ids.has(relay.toolCallId)) relays[relay.toolCallId] = relay;
    } else if (event.type === 'tool_result' && ids.has(data.toolCallId as string)) {
      results[data.toolCallId as string] = { output: String(data.output), isError: data.isError === true };
    }
  }
  for (const execution of await q.toolExecutions.listToolExecutions({ runId })) {
    const call = calls.find((c) => c.toolCallId === execution.toolCallId);
    if (!call || results[call.toolCallId]) continue;
    const stored = execution.result as { output?: string; isError?: boolean } | null;
    const result = stored?.output !== undefined
      ? { output: stored.output, isError: stored.isError === true }
      : { output: `${call.toolName} was interrupted while running (the server stopped or lost its database) and its result was not stored; it is not run again.`, isError: true };
    results[call.toolCallId] = result;
    // The decision that let it run, if the log lost it with the write that failed: stored now, audited.
    const relay = relays[call.toolCallId];
    if (relay && !logged.has(relay.id)) await appendDecision({ q, append }, relay);
    await append([{ type: 'tool_result', data: { type: 'tool_result', agentId: 'main', parents: [], runId, toolCallId: call.toolCallId, tool: call.toolName, ...result, denied: false } }]);
  }
  return { calls, relays, results };
}

/** A settled relay's `relay_resolved` event and its audit row, as the pump would have stored them. */
async function appendDecision({ q, append }: ResumeDeps, relay: RelayRequest): Promise<void> {
  const row = await q.relays.getRelay({ id: relay.id });
  const outcome = row ? toRelayRecord(row).outcome : undefined;
  if (!outcome) return;
  const always = outcome.response?.always === true;
  const event = { type: 'relay_resolved', agentId: 'main', parents: [], runId: relay.runId, relayId: relay.id, toolCallId: relay.toolCallId, status: outcome.status, reason: outcome.reason, decidedBy: outcome.decidedBy, always };
  await append([{ type: 'relay_resolved', data: event }], [{
    kind: 'decision', runId: relay.runId, sessionId: relay.sessionId, agentId: 'main', tool: relay.tool, params: auditParams(relay.params),
    action: outcome.status === 'approved' ? 'allow' : 'deny', reason: outcome.reason ?? outcome.status, decidedBy: outcome.decidedBy,
    waitMs: Math.max(0, outcome.decidedAt - relay.createdAt), details: { relayId: relay.id, toolCallId: relay.toolCallId, status: outcome.status, always },
  }]);
}

/** Cancels the run's pending relays that `resume` does not wait for; returns their ids. */
export async function cancelStrayRelays(q: Queries, runId: string, resume: ResumePoint | undefined): Promise<string[]> {
  const kept = new Set(Object.values(resume?.relays ?? {}).map((relay) => relay.id));
  const cancelled: string[] = [];
  for (const relay of await q.relays.listPendingRelays({ runId })) {
    if (kept.has(relay.id)) continue;
    const result = await q.relays.resolveRelay({ id: relay.id, status: 'cancelled', reason: 'The run was resumed without this call', decidedBy: 'system' });
    if (result.ok) cancelled.push(relay.id);
  }
  return cancelled;
}

/**
 * The final reply, when the conversation already ended (its last message is the model's answer
 * with no tool calls): the loop had returned, only its `done` was not stored. Undefined otherwise.
 */
export function finalReply(messages: ModelMessage[]): string | undefined {
  const last = messages.at(-1);
  if (!last || last.role !== 'assistant') return undefined;
  if (typeof last.content === 'string') return last.content;
  if (last.content.some((part) => part.type === 'tool-call')) return undefined;
  return last.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}
