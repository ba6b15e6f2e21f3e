// Every event of a run, in the seed design's wire shape, for the library (`agent.invoke()`), the
// event log and the SSE stream alike. Each carries `type`, `runId`, `agentId` (`main` or a
// subagent's profile) and `parents` (the agents above it, outermost first). One name per thing:
// `content` for a chunk of text, `name` for the tool of a `tool_call`/`tool_result`, and on a
// `relay` the relay request's own fields, flat, where the tool is `tool` (docs/decisions/0008).
import { z } from 'zod';
import { ModeSchema } from '../policy/types';
import {
  DecisionSchema,
  GrantScopeSchema,
  EditedParamsSchema,
  RelayApprovalSchema,
  RelayOutcomeStatusSchema,
  RelayRequestSchema,
  type RelayOutcome,
  type RelayProgress,
  type RelayResponse,
} from './relay';

const origin = {
  runId: z.string(),
  agentId: z.string(),
  parents: z.array(z.string()),
};

export const TextEventSchema = z.object({ type: z.literal('text'), ...origin, content: z.string() });

export const ToolCallEventSchema = z.object({
  type: z.literal('tool_call'),
  ...origin,
  toolCallId: z.string(),
  name: z.string(),
  params: z.unknown(),
  /** The gate's decision; absent for a call that never reached it (unknown tool, invalid input). */
  decision: DecisionSchema.optional(),
});

/** The relay request itself, flat on the event (the library adds `respond`). */
export const RelayEventSchema = RelayRequestSchema.extend({ type: z.literal('relay') });

export const RelayResolvedEventSchema = z.object({
  type: z.literal('relay_resolved'),
  ...origin,
  relayId: z.string(),
  toolCallId: z.string(),
  status: RelayOutcomeStatusSchema,
  reason: z.string().optional(),
  decidedBy: z.string(),
  always: z.boolean().optional(),
  /** With `always`: whom the grant covers. Absent in events stored before it was recorded. */
  scope: GrantScopeSchema.optional(),
  /** Edit, then approve: the call as it runs (the `tool_call` event holds the agent's original). */
  params: EditedParamsSchema.optional(),
  /** A relay that needed several approvers: who approved. */
  approvals: z.array(RelayApprovalSchema).optional(),
});

/** A relay that needs several approvers got one and is still pending: who so far, and the edited call if any. */
export const RelayProgressEventSchema = z.object({
  type: z.literal('relay_progress'),
  ...origin,
  relayId: z.string(),
  toolCallId: z.string(),
  approvals: z.array(RelayApprovalSchema),
  needed: z.number().int(),
  params: EditedParamsSchema.optional(),
});

export const ToolResultEventSchema = z.object({
  type: z.literal('tool_result'),
  ...origin,
  toolCallId: z.string(),
  name: z.string(),
  output: z.string(),
  isError: z.boolean(),
  /** The call never ran: the policy or a human refused it (or its approval timed out). */
  denied: z.boolean(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const ErrorEventSchema = z.object({
  type: z.literal('error'),
  ...origin,
  message: z.string(),
  /** On an error that ends a stream (no `seq`): the error code, as an error response would carry it. */
  code: z.string().optional(),
});

export const AgentStartEventSchema = z.object({
  type: z.literal('agent_start'),
  ...origin,
  profile: z.string(),
  prompt: z.string(),
});
export const AgentEndEventSchema = z.object({
  type: z.literal('agent_end'),
  ...origin,
  profile: z.string(),
  output: z.string(),
});

export const FINISH_REASONS = ['stop', 'max_steps', 'cancelled', 'error'] as const;
export const DoneEventSchema = z.object({
  type: z.literal('done'),
  ...origin,
  finishReason: z.enum(FINISH_REASONS),
  text: z.string(),
});

/** Server only: the run's mode was switched (POST /api/runs/:id/mode). */
export const ModeChangedEventSchema = z.object({ type: z.literal('mode_changed'), ...origin, mode: ModeSchema });
/** Server only: the run continues after a restart or on another instance. */
export const ResumedEventSchema = z.object({ type: z.literal('resumed'), ...origin });
/** SSE only, first on POST /api/chat's stream (not stored, no `seq`). */
export const ConnectedEventSchema = z.object({ type: z.literal('connected'), ...origin, sessionId: z.string() });

/** What an agent run emits (lib/agent). */
export const AgentEventSchema = z.discriminatedUnion('type', [
  TextEventSchema,
  ToolCallEventSchema,
  RelayEventSchema,
  RelayResolvedEventSchema,
  RelayProgressEventSchema,
  ToolResultEventSchema,
  ErrorEventSchema,
  AgentStartEventSchema,
  AgentEndEventSchema,
  DoneEventSchema,
]);

/** What a run's event log holds: the agent's events (a relay without `respond`) and the server's own. */
export const RunEventSchema = z.discriminatedUnion('type', [
  ...AgentEventSchema.options,
  ModeChangedEventSchema,
  ResumedEventSchema,
]);

/** An event read from the log: its sequence number in the run is the SSE id. */
export const LoggedEventSchema = z.intersection(RunEventSchema, z.object({ seq: z.number().int().positive() }));

/** Any event an SSE consumer reads (see ServerEvent). */
export const ServerEventSchema = z.union([LoggedEventSchema, ConnectedEventSchema, ErrorEventSchema]);

export type TextEvent = z.infer<typeof TextEventSchema>;
export type ToolCallEvent = z.infer<typeof ToolCallEventSchema>;
export type RelayEvent = z.infer<typeof RelayEventSchema>;
export type RelayResolvedEvent = z.infer<typeof RelayResolvedEventSchema>;
export type RelayProgressEvent = z.infer<typeof RelayProgressEventSchema>;
export type ToolResultEvent = z.infer<typeof ToolResultEventSchema>;
export type ErrorEvent = z.infer<typeof ErrorEventSchema>;
export type AgentStartEvent = z.infer<typeof AgentStartEventSchema>;
export type AgentEndEvent = z.infer<typeof AgentEndEventSchema>;
export type DoneEvent = z.infer<typeof DoneEventSchema>;
export type FinishReason = DoneEvent['finishReason'];
export type ModeChangedEvent = z.infer<typeof ModeChangedEventSchema>;
export type ResumedEvent = z.infer<typeof ResumedEventSchema>;
export type ConnectedEvent = z.infer<typeof ConnectedEventSchema>;

/** A run's event as stored and streamed (no `seq`). */
export type RunEvent = z.infer<typeof RunEventSchema>;
export type RunEventType = RunEvent['type'];
/** An event with its place in the run's log. */
export type LoggedEvent = RunEvent & { seq: number };

/** The library's relay event: answer it right there with `respond` (the seed design's callback). */
export type LiveRelayEvent = RelayEvent & {
  /** Approve (optionally with edited `params`) or deny. A relay that needs several approvers takes `respondAs`. */
  respond(response: RelayResponse): Promise<RelayOutcome>;
  /** A named person's decision, which counts toward a relay that needs several approvers. */
  respondAs(
    approver: { user: string; role: string },
    response: RelayResponse,
  ): Promise<{ status: 'decided'; outcome: RelayOutcome } | { status: 'partial'; progress: RelayProgress }>;
};
/** What `agent.invoke()` yields. */
export type AgentEvent = Exclude<z.infer<typeof AgentEventSchema>, RelayEvent> | LiveRelayEvent;
export type AgentEventType = AgentEvent['type'];

/** What an SSE consumer reads: the logged events, `connected` first, and an `error` without `seq` that ends a stream. */
export type ServerEvent = LoggedEvent | ConnectedEvent | ErrorEvent;
export type ServerEventType = ServerEvent['type'];

export const RUN_EVENT_TYPES: readonly RunEventType[] = RunEventSchema.options.map((o) => o.shape.type.value);

export function isRunEventType(type: string): type is RunEventType {
  return (RUN_EVENT_TYPES as readonly string[]).includes(type);
}

/** An event's body without where it came from (the loop adds `runId`, `agentId`, `parents`). */
export type EventBody<E extends { type: string }> = E extends unknown
  ? Omit<E, 'runId' | 'agentId' | 'parents'>
  : never;
