// A pending approval ("relay") as it crosses every boundary: what the loop registers and the
// `relay` event carries, a human's answer (the library's `respond`, POST /api/chat/relay/:id), and
// the recorded outcome. The field names are the seed design's (`kind`, `id`, `tool`, `params`, ...).
import { z } from 'zod';
import {
  ActionSchema,
  MAX_APPROVALS,
  ParamKindSchema,
  RiskSchema,
  RuleSchema,
  type AlwaysAllowVerdict,
  type Decision,
  type Rule,
} from '../policy/types';

export const RELAY_STATUSES = ['pending', 'approved', 'denied', 'expired', 'cancelled'] as const;
export const RelayStatusSchema = z.enum(RELAY_STATUSES);
export type RelayStatus = z.infer<typeof RelayStatusSchema>;
/** How a relay ended. */
export const RelayOutcomeStatusSchema = RelayStatusSchema.exclude(['pending']);
export type RelayOutcomeStatus = z.infer<typeof RelayOutcomeStatusSchema>;

/** The engine's Decision (lib/policy defines it): checked for what every reader relies on, kept whole. */
export const DecisionSchema = z.custom<Decision>(
  (value) => {
    const d = value as Partial<Decision> | null;
    return (
      typeof d === 'object' &&
      d !== null &&
      ActionSchema.safeParse(d.action).success &&
      typeof d.explanation === 'string' &&
      typeof d.reason === 'string'
    );
  },
  { message: 'expected a decision { action, reason, explanation }' },
);

/**
 * A suggested rule as derived for the call (lib/policy `derivePermission`, or a tool's own): an
 * allow rule for the relay's tool. Checked loosely, since the server re-checks any rule it stores.
 */
export const SuggestedRuleSchema = z.custom<Rule>(
  (value) => typeof value === 'object' && value !== null && typeof (value as Rule).tool === 'string',
  {
    message: 'expected a rule { action, tool, params? }',
  },
);

/** Whether Always Allow would cover this very call (lib/policy `alwaysAllowVerdict`), computed when the relay is raised. */
export const AlwaysAllowVerdictSchema = z.custom<AlwaysAllowVerdict>(
  (value) => typeof value === 'object' && value !== null && typeof (value as AlwaysAllowVerdict).covers === 'boolean',
  {
    message: 'expected a verdict { covers, reason?, rule? }',
  },
);

/** An ask rule's `approvals` as a relay carries it (roles default to approver and admin). */
export const ApprovalRequirementSchema = z.object({
  count: z.number().int().min(1).max(MAX_APPROVALS),
  roles: z.array(z.string()).optional(),
});
export type ApprovalRequirementDto = z.infer<typeof ApprovalRequirementSchema>;

/** One person's approval of a relay that needs several. */
export const RelayApprovalSchema = z.object({ by: z.string(), role: z.string(), at: z.number() });
export type RelayApproval = z.infer<typeof RelayApprovalSchema>;

/** The call's parameters as a human edited them before approving (the tool stays the relay's). */
export const EditedParamsSchema = z.record(z.string(), z.unknown());

/** Which edit of an outside call its CLI can run: one param, changed alone (and kept starting with `prefix`). */
export const RelayEditableSchema = z.object({ field: z.string(), prefix: z.string().optional() });

export const RelayPlaceSchema = z.object({
  workspaceRoot: z.string(),
  homeDir: z.string().optional(),
  searchRoot: z.string().optional(),
  paramKinds: z.record(z.string(), ParamKindSchema).optional(),
  /**
   * A CLI that takes back only part of an edit (a hook): the edit it can run; null, none. Absent:
   * any edit runs as approved (an MCP client, POST /api/hooks/decide).
   */
  editable: RelayEditableSchema.nullable().optional(),
});
export type RelayPlace = z.infer<typeof RelayPlaceSchema>;

export const RelayRequestSchema = z.object({
  id: z.string(),
  kind: z.literal('permission'),
  runId: z.string(),
  sessionId: z.string(),
  /** The agent that made the call, and the chain of agents above it (outermost first). */
  agentId: z.string(),
  parents: z.array(z.string()),
  toolCallId: z.string(),
  /** The tool's name (the seed design's name for it on a relay). */
  tool: z.string(),
  params: z.record(z.string(), z.unknown()),
  risk: RiskSchema.optional(),
  /** Why it asks: the policy's decision, with the rule and explanation. */
  decision: DecisionSchema,
  /** The rules "Always Allow" would add. */
  suggestedRules: z.array(SuggestedRuleSchema),
  /** Whether those rules cover this call, and if not why (absent on relays raised by older versions). */
  alwaysAllow: AlwaysAllowVerdictSchema.optional(),
  /**
   * Auto-approve would allow this call (no ask rule, nothing the tool itself found), so "approve
   * this and all later calls" may settle it; absent on relays raised by older versions (never settled so).
   */
  autoApprove: z.boolean().optional(),
  /** A diff for file writes and edits. */
  preview: z.unknown().optional(),
  /** More than one approver (the ask rule's `approvals`): how many distinct people, with which roles. */
  approvals: ApprovalRequirementSchema.optional(),
  /**
   * Where an outside agent's call acts, as its decision judged it: the folder relative paths mean
   * (a hook's `cwd`), the home `~/` means, the folder a search reads below, the param kinds of a
   * tool that is not built in. An edit and Always Allow are judged there too. Absent: Gatehouse's
   * own agent, in the server's workspace.
   */
  place: RelayPlaceSchema.optional(),
  /**
   * An outside agent's call as its CLI sent it (its own tool name and input), beside the mapped
   * call (`tool`, `params`) the policy judged: what the approver reads when the mapping leaves
   * something out (a patch's text, a flag).
   */
  original: z.object({ tool: z.string(), input: z.unknown() }).optional(),
  /** The question as text, e.g. `Run 'bash' with arguments {"command":"ls"}?`. */
  prompt: z.string(),
  createdAt: z.number(),
  /** Epoch ms after which the call is denied with reason "Approval timeout". */
  expiresAt: z.number(),
});
export type RelayRequest = z.infer<typeof RelayRequestSchema>;

export const GRANT_SCOPES = ['session', 'global'] as const;
export const GrantScopeSchema = z.enum(GRANT_SCOPES);
export type GrantScope = z.infer<typeof GrantScopeSchema>;

/** A human's answer: the seed design's `{ approved, always?, reason? }`, plus the edited rule and its scope. */
export const RelayResponseSchema = z.object({
  approved: z.boolean(),
  /** Always Allow: add `rule` (or the suggested rules) as grants. */
  always: z.boolean().optional(),
  reason: z.string().max(2000).optional(),
  /** The rule(s) the human edited before confirming Always Allow. */
  rule: z.union([RuleSchema, z.array(RuleSchema).min(1).max(20)]).optional(),
  /** Who the grant applies to: this session (default) or everyone. */
  scope: GrantScopeSchema.optional(),
  /**
   * Edit, then approve: the parameters the tool runs with instead of the agent's (validated against
   * the tool's schema and evaluated again by the policy before anything is recorded). On a recorded
   * outcome this is the call that ran; outside runs (hooks, MCP) read it from there too.
   */
  params: EditedParamsSchema.optional(),
});
export type RelayResponse = z.infer<typeof RelayResponseSchema>;

/** POST /api/chat/relay/:relayId: `{ sessionId, response }` -> `{ success: true }`. */
export const RelayDecisionRequestSchema = z.object({
  sessionId: z.string().min(1),
  response: RelayResponseSchema,
});
export type RelayDecisionRequest = z.infer<typeof RelayDecisionRequestSchema>;

export const RelayOutcomeSchema = z.object({
  status: RelayOutcomeStatusSchema,
  response: RelayResponseSchema.optional(),
  /** For a denial, expiry or cancellation: why. */
  reason: z.string().optional(),
  decidedBy: z.string(),
  decidedAt: z.number(),
  /** A relay that needed several approvers: every approval counted, in order. */
  approvals: z.array(RelayApprovalSchema).optional(),
});
export type RelayOutcome = z.infer<typeof RelayOutcomeSchema>;

/** A relay as stored: the request, and its outcome once decided (the broker's and the database's view). */
export interface RelayRecord {
  request: RelayRequest;
  outcome?: RelayOutcome;
  /** While pending, a relay that needs several approvers: the approvals so far, and the edited call they approve if any. */
  progress?: RelayProgress;
}

/** A quorum relay still pending after an approval: who approved so far and how many are needed in all. */
export interface RelayProgress {
  approvals: RelayApproval[];
  needed: number;
  /** The call as edited by an approver (the approvals so far are of this call). */
  params?: Record<string, unknown>;
}
