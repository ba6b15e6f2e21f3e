// Where a run continues after a restart or a takeover: the calls of its last step, with the relays
// they raised and the results they produced (from the event log and the tool-call claims). A call
// that had started executing but announced no result may have run, so it is never run again: the
// model is told it was interrupted. Relays of the run that the resumed step does not wait for
// (raised by a copy that was cut off, or by a subagent that was interrupted) are cancelled, so no
// approval is left pending that nothing would act on. A run can get ahead of its log (it goes on
// while an append waits, until the failed append detaches it), so every step whose results were
// checkpointed is reconciled too: the decisions and results the log lost are stored, and audited.
import type { ModelMessage } from 'ai';
import { checkpointedResults, type CallResult, type ModelToolCall, type ResumePoint } from '../../agent';
import { toRelayRecord, type AppendEffects, type Queries, type RecordAuditInput } from '../../db';
import { LIVE_RUN_STATUSES, type RelayResolvedEvent, type RunEvent } from '../../contract';
import type { RelayRequest } from '../../relay';
import { auditParams } from './run-audit';
import { readEvents } from './run-log';

export interface EndDeps {
  q: Queries;
  append(events: RunEvent[], effects?: AppendEffects): Promise<void>;
}

export interface ResumeDeps {
  q: Queries;
  /** Stores events of the run (with their audit rows): the interrupted calls' results, decisions not yet logged. */
  append(events: RunEvent[], audit?: RecordAuditInput[]): Promise<void>;
}

/** What the run's log holds of its main agent's calls: their relays, the decisions logged, their results. */
interface Ledger {
  relays: Map<string, RelayRequest>;
  /** The decisions logged: relay id -> status. */
  logged: Map<string, string>;
  /** The calls the policy denied (their logged `tool_call` carries a deny decision). */
  policyDenied: Set<string>;
  results: Map<string, CallResult>;
  executions: Map<string, { result: unknown }>;
}

/**
 * The last step's calls, relays and results; undefined when the run stopped between steps. Every
 * step whose results were checkpointed is reconciled first: a run goes on while its log cannot be
 * written (until its copy is detached), so the log may lack decisions and results the model saw.
 */
export async function resumePointOf(
  deps: ResumeDeps,
  runId: string,
  messages: ModelMessage[],
): Promise<ResumePoint | undefined> {
  const ledger = await readLedger(deps.q, runId);
  await reconcileAnswered(deps, runId, messages, ledger);
  const last = messages.at(-1);
  const calls = last ? toolCallsOf(last) : [];
  if (calls.length === 0) return undefined;
  await reconcileCalls(deps, runId, calls, new Map(), ledger);
  const relays: ResumePoint['relays'] = {};
  const results: ResumePoint['results'] = {};
  for (const call of calls) {
    const relay = ledger.relays.get(call.toolCallId);
    const result = ledger.results.get(call.toolCallId);
    if (relay) relays[call.toolCallId] = relay;
    if (result) results[call.toolCallId] = result;
  }
  return { calls, relays, results };
}

/**
 * A conversation that already ended (see finalReply): the loop had returned, only its `done` was
 * not stored. What the log lost of its steps with tool calls is stored (the decisions, from the
 * relays, and the results the model was given), its stray relays cancelled, and it ends as done;
 * the model is never asked again (it would repeat the conversation's last request).
 */
export async function finishEnded(
  { q, append }: EndDeps,
  runId: string,
  messages: ModelMessage[],
  reply: string,
): Promise<void> {
  await reconcileAnswered(
    { q, append: (events, audit) => append(events, { audit }) },
    runId,
    messages,
    await readLedger(q, runId),
  );
  await cancelStrayRelays(q, runId, undefined);
  const origin = { runId, agentId: 'main', parents: [] as string[] };
  await append(
    [
      ...(reply ? [{ ...origin, type: 'text' as const, content: reply }] : []),
      { ...origin, type: 'done', finishReason: 'stop', text: reply },
    ],
    { status: { to: 'done', ifStatus: [...LIVE_RUN_STATUSES] } },
  );
}

/** Every step with tool calls followed by its results: what the log lacks of it is stored. */
async function reconcileAnswered(
  deps: ResumeDeps,
  runId: string,
  messages: ModelMessage[],
  ledger: Ledger,
): Promise<void> {
  for (let i = 0; i + 1 < messages.length; i++) {
    const calls = toolCallsOf(messages[i]!);
    if (calls.length > 0 && calls.some((call) => !ledger.results.has(call.toolCallId)))
      await reconcileCalls(deps, runId, calls, checkpointedResults(messages[i + 1]), ledger);
  }
}

function toolCallsOf(message: ModelMessage): ModelToolCall[] {
  if (message.role !== 'assistant' || typeof message.content === 'string') return [];
  return message.content.flatMap((part) =>
    part.type === 'tool-call' ? [{ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input }] : [],
  );
}

async function readLedger(q: Queries, runId: string): Promise<Ledger> {
  const ledger: Ledger = {
    relays: new Map(),
    logged: new Map(),
    policyDenied: new Set(),
    results: new Map(),
    executions: new Map(),
  };
  // Read through the one reader of the log, so runs stored by earlier versions resume too.
  for (const event of await readEvents(q.events, runId)) {
    if (event.agentId !== 'main') continue;
    if (event.type === 'relay_resolved') ledger.logged.set(event.relayId, event.status);
    else if (event.type === 'relay') ledger.relays.set(event.toolCallId, relayRequestOf(event));
    else if (event.type === 'tool_call') {
      if (event.decision?.action === 'deny') ledger.policyDenied.add(event.toolCallId);
    } else if (event.type === 'tool_result') {
      ledger.results.set(event.toolCallId, {
        output: String(event.output),
        isError: event.isError === true,
        ...(event.denied ? { denied: true } : {}),
      });
    }
  }
  for (const execution of await q.toolExecutions.listToolExecutions({ runId }))
    ledger.executions.set(execution.toolCallId, execution);
  return ledger;
}

/**
 * Completes the log for `calls` (the ledger follows): a call without a logged result gets the one
 * the model was given (`answered`), else the one in the execution log, else, if it had started,
 * "interrupted" (never run again); a call neither answered nor started is left to the resumed
 * step. The decision that let it run (or refused it) is stored first if the log lost it, and audited.
 */
async function reconcileCalls(
  { q, append }: ResumeDeps,
  runId: string,
  calls: ModelToolCall[],
  answered: Map<string, CallResult>,
  ledger: Ledger,
): Promise<void> {
  for (const call of calls) {
    if (ledger.results.has(call.toolCallId)) continue;
    const execution = ledger.executions.get(call.toolCallId);
    const given = answered.get(call.toolCallId);
    if (!execution && !given) continue;
    const stored = execution?.result as { output?: string; isError?: boolean } | null | undefined;
    const result =
      given ??
      (stored?.output !== undefined
        ? { output: stored.output, isError: stored.isError === true }
        : {
            output: `${call.toolName} was interrupted while running (the server stopped or lost its database) and its result was not stored; it is not run again.`,
            isError: true,
          });
    const relay = ledger.relays.get(call.toolCallId);
    let outcome = relay && ledger.logged.get(relay.id);
    if (relay && outcome === undefined) {
      outcome = await appendDecision({ q, append }, relay);
      if (outcome) ledger.logged.set(relay.id, outcome);
    }
    const denied =
      !execution &&
      (outcome !== undefined
        ? outcome !== 'approved'
        : ledger.policyDenied.has(call.toolCallId) || result.denied === true);
    await append([
      {
        type: 'tool_result',
        agentId: 'main',
        parents: [],
        runId,
        toolCallId: call.toolCallId,
        name: call.toolName,
        ...result,
        denied,
      },
    ]);
    ledger.results.set(call.toolCallId, result);
  }
}

/** A settled relay's `relay_resolved` event and its audit row, as the pump would have stored them; its status. */
async function appendDecision({ q, append }: ResumeDeps, relay: RelayRequest): Promise<string | undefined> {
  const row = await q.relays.getRelay({ id: relay.id });
  const outcome = row ? toRelayRecord(row).outcome : undefined;
  if (!outcome) return undefined;
  const always = outcome.response?.always === true;
  const event: RelayResolvedEvent = {
    type: 'relay_resolved',
    agentId: 'main',
    parents: [],
    runId: relay.runId,
    relayId: relay.id,
    toolCallId: relay.toolCallId,
    status: outcome.status,
    reason: outcome.reason,
    decidedBy: outcome.decidedBy,
    always,
  };
  await append(
    [event],
    [
      {
        kind: 'decision',
        runId: relay.runId,
        sessionId: relay.sessionId,
        agentId: 'main',
        tool: relay.tool,
        params: auditParams(relay.params),
        action: outcome.status === 'approved' ? 'allow' : 'deny',
        reason: outcome.reason ?? outcome.status,
        decidedBy: outcome.decidedBy,
        waitMs: Math.max(0, outcome.decidedAt - relay.createdAt),
        details: { relayId: relay.id, toolCallId: relay.toolCallId, status: outcome.status, always },
      },
    ],
  );
  return outcome.status;
}

/** The relay request a `relay` event carries (its own fields, without the event's `type` and `seq`). */
function relayRequestOf(event: RelayRequest & { type: 'relay'; seq?: number }): RelayRequest {
  const { type: _type, seq: _seq, ...request } = event;
  return request;
}

/** Cancels the run's pending relays that `resume` does not wait for; returns their ids. */
export async function cancelStrayRelays(q: Queries, runId: string, resume: ResumePoint | undefined): Promise<string[]> {
  const kept = new Set(Object.values(resume?.relays ?? {}).map((relay) => relay.id));
  const cancelled: string[] = [];
  for (const relay of await q.relays.listPendingRelays({ runId })) {
    if (kept.has(relay.id)) continue;
    const result = await q.relays.resolveRelay({
      id: relay.id,
      status: 'cancelled',
      reason: 'The run was resumed without this call',
      decidedBy: 'system',
    });
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
