// The other response bodies the browser reads: grants, audit rows and the chat's pickers. Times
// are ISO strings (JSON); the server's rows hold Dates.
import { z } from 'zod';
import { ActionSchema, RuleSchema } from '../policy/types';
import { GrantScopeSchema } from './relay';

/** One live Always Allow grant (GET /api/grants). */
export const GrantSchema = z.object({
  id: z.string(),
  rule: RuleSchema,
  scope: GrantScopeSchema,
  sessionId: z.string().nullable(),
  once: z.boolean(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type Grant = z.infer<typeof GrantSchema>;

/** The kinds of audit row decisions and grants make (account changes add their own, e.g. `user_created`). */
export const AUDIT_KINDS = ['decision', 'policy_edit', 'grant_created', 'grant_revoked', 'grant_consumed'] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number] | (string & {});
/** A decision's action, as the audit records and filters it. */
export const AUDIT_ACTIONS = ActionSchema.options;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One row of GET /api/audit. */
export const AuditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.string(),
  runId: z.string().nullable(),
  sessionId: z.string().nullable(),
  agentId: z.string().nullable(),
  tool: z.string().nullable(),
  params: z.record(z.string(), z.unknown()).nullable(),
  action: z.string().nullable(),
  reason: z.string().nullable(),
  rule: z.record(z.string(), z.unknown()).nullable(),
  decidedBy: z.string().nullable(),
  waitMs: z.number().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** A page of a paginated list: `nextCursor` is null on the last page. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** GET /api/agents: the agent profiles and modes a chat can pick, and the server's model. */
export const AgentsResponseSchema = z.object({
  model: z.string(),
  defaultAgent: z.string(),
  agents: z.array(z.object({ name: z.string(), description: z.string(), tools: z.array(z.string()) })),
  modes: z.array(z.object({ value: z.string(), label: z.string() })),
});
export type AgentsResponse = z.infer<typeof AgentsResponseSchema>;
export type AgentProfileInfo = AgentsResponse['agents'][number];
