// What the audit records of a run's events: every decision, automatic (the policy's, on
// `tool_call`, with where its rule came from) or human (on `relay_resolved`, with who decided and
// how long they took). The rows are
// stored in the same statement as the event that calls for them (run-pump.ts). A run follows the
// stored policy as it is saved, so each decision is audited with the version that made it.
import { createHash } from 'node:crypto';
import type { AgentEvent } from '../../agent';
import type { RunEvent } from '../../contract';
import type { RecordAuditInput } from '../../db';
import type { Decision } from '../../policy';
import { cutText } from '../../db/storable-json';

/** What the audit needs of a call that asked, until its answer comes. */
export interface AskedCall {
  createdAt: number;
  tool: string;
  params: unknown;
}

export interface AuditedRun {
  runId: string;
  sessionId: string;
}

/** The policy a run decides with: its stored version, and how many of its rules are the stored policy's. */
export interface AuditedPolicy {
  version: number;
  /** The stored policy's rule count: rules at this index or later are the run's own `permissions`. */
  rules: number;
}

/** Where a deciding rule came from: the stored policy, the run's own permissions, or a grant. */
export type RuleSource = 'policy' | 'run' | 'grant';

/**
 * The stored version each decision was made by, keyed by the decision object itself (the one its
 * `tool_call` event carries): noted by the server's agents at the decision, read when the event is
 * stored. Held weakly, so nothing is kept once the event is gone.
 */
const decidedBy = new WeakMap<Decision, AuditedPolicy>();

/** Notes the stored policy version that made a decision (see `decidedBy`). */
export function noteDecidingPolicy(decision: Decision, policy: AuditedPolicy): void {
  decidedBy.set(decision, policy);
}

const sourceOf = (ref: { rule?: { index: number }; grant?: unknown }, policy: AuditedPolicy): RuleSource | undefined =>
  ref.rule ? (ref.rule.index < policy.rules ? 'policy' : 'run') : ref.grant ? 'grant' : undefined;

/** The audit's `rule` of a decision: the deciding rule (with the policy version) or grant, and its source. */
function decidingRule(decision: Decision, policy: AuditedPolicy): Pick<RecordAuditInput, 'rule' | 'details'> {
  const source = sourceOf(decision, policy);
  // A rule of the run's permissions is also numbered within them (`permissionsIndex`), as its caller wrote them.
  const rule = decision.rule
    ? {
        ...decision.rule,
        policyVersion: policy.version,
        source,
        ...(source === 'run' ? { permissionsIndex: decision.rule.index - policy.rules } : {}),
      }
    : decision.grant
      ? { ...decision.grant, source }
      : undefined;
  // A shell command's parts may be decided by rules of several sources: all of them are named.
  const sources = [
    ...new Set((decision.parts ?? []).map((part) => sourceOf(part, policy)).filter((s) => s !== undefined)),
  ].sort();
  return { ...(rule ? { rule } : {}), ...(sources.length > 1 ? { details: { sources } } : {}) };
}

/**
 * The audit rows an event calls for; `asked` carries a relay's call from `relay` to `relay_resolved`.
 * `policy`: the run's policy when the decision's own was not noted (noteDecidingPolicy).
 */
export function auditRowsFor(
  run: AuditedRun,
  event: AgentEvent | RunEvent,
  asked: Map<string, AskedCall>,
  policy: AuditedPolicy,
): RecordAuditInput[] {
  if (event.type === 'tool_call' && event.decision) {
    return [
      {
        kind: 'decision',
        runId: run.runId,
        sessionId: run.sessionId,
        agentId: event.agentId,
        tool: event.name,
        params: auditParams(event.params),
        action: event.decision.action,
        reason: event.decision.explanation,
        ...decidingRule(event.decision, decidedBy.get(event.decision) ?? policy),
        decidedBy: event.decision.action === 'ask' ? undefined : 'policy',
      },
    ];
  }
  if (event.type === 'relay') {
    asked.set(event.id, { createdAt: event.createdAt, tool: event.tool, params: event.params });
  } else if (event.type === 'relay_resolved') {
    // The human's row names the call too, so filtering the audit by tool finds approvals and denials.
    const call = asked.get(event.relayId);
    const rows: RecordAuditInput[] = [
      {
        kind: 'decision',
        runId: run.runId,
        sessionId: run.sessionId,
        agentId: event.agentId,
        ...(call ? { tool: call.tool, params: auditParams(call.params) } : {}),
        action: event.status === 'approved' ? 'allow' : 'deny',
        reason: event.reason ?? event.status,
        decidedBy: event.decidedBy,
        waitMs: Date.now() - (call?.createdAt ?? Date.now()),
        details: {
          relayId: event.relayId,
          toolCallId: event.toolCallId,
          status: event.status,
          always: event.always,
          // Edit, then approve: `params` above is the agent's call, this the one that ran.
          ...(event.params ? { editedParams: auditParams(event.params) } : {}),
          // Several approvers: every one of them, in order.
          ...(event.approvals ? { approvers: event.approvals } : {}),
        },
      },
    ];
    asked.delete(event.relayId);
    if (event.status === 'approved' && event.always) {
      rows.push({
        kind: 'grant_created',
        runId: run.runId,
        sessionId: run.sessionId,
        agentId: event.agentId,
        decidedBy: event.decidedBy,
        details: { relayId: event.relayId },
      });
    }
    return rows;
  }
  return [];
}

const MAX_AUDIT_PARAMS_BYTES = 4_096;

/** Params as recorded in the audit: whole when small, a digest when large (e.g. a file's content). */
export function auditParams(params: unknown): Record<string, unknown> {
  const json = JSON.stringify(params ?? {});
  if (json.length <= MAX_AUDIT_PARAMS_BYTES) return (params ?? {}) as Record<string, unknown>;
  return {
    digest: `sha256:${createHash('sha256').update(json).digest('hex')}`,
    bytes: json.length,
    preview: cutText(json, 200),
  };
}
