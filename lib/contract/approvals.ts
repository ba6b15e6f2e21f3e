// Approvals away from the chat: the inbox's relays (GET /api/relays, GET /api/relays/:id) and the
// webhook endpoints and delivery log (/api/webhooks). Times are ISO strings.
import { z } from 'zod';
import { RelayApprovalSchema, RelayRequestSchema, RelayStatusSchema } from './relay';

/**
 * A pending relay whose rule names approvers, once someone approved: who so far, how many in all,
 * and the call as an approver edited it (what the next approval approves, and what runs).
 */
export const InboxProgressSchema = z.object({
  approvals: z.array(RelayApprovalSchema),
  needed: z.number(),
  params: z.record(z.string(), z.unknown()).optional(),
});

export const InboxRelaySchema = z.object({
  request: RelayRequestSchema,
  status: RelayStatusSchema,
  /** Who raised it: Gatehouse's agent loop, a hook caller or an MCP client (runs.source). */
  source: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
  progress: InboxProgressSchema.optional(),
});
export type InboxRelay = z.infer<typeof InboxRelaySchema>;

/** The call an approval of this relay approves: an approver's edit when there is one (`progress.params`). */
export const shownRequest = (relay: Pick<InboxRelay, 'request' | 'progress'>): InboxRelay['request'] =>
  relay.progress?.params ? { ...relay.request, params: relay.progress.params, preview: undefined } : relay.request;

export const InboxPageSchema = z.object({
  items: z.array(InboxRelaySchema),
  nextCursor: z.string().nullable(),
  /** How many match the filters in all (every page). */
  total: z.number(),
});
export type InboxPage = z.infer<typeof InboxPageSchema>;

export const WEBHOOK_EVENT_TYPES = ['relay.created', 'relay.resolved', 'relay.expired'] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export const WebhookFormatSchema = z.enum(['json', 'slack']);

export const WebhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(WebhookEventTypeSchema),
  format: WebhookFormatSchema,
  createdBy: z.string(),
  createdAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** The creation answer: the only time the signing secret is shown. */
export type CreatedWebhookEndpoint = WebhookEndpoint & { secret: string };

export const WebhookDeliverySchema = z.object({
  id: z.string(),
  relayId: z.string(),
  event: WebhookEventTypeSchema,
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number(),
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
