// Request schemas of /api/webhooks.
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES, WebhookEventTypeSchema, WebhookFormatSchema } from '@/lib/contract';
import { CursorParam } from '@/lib/server/http/input';

export const CreateWebhookSchema = z.object({
  url: z.string().trim().min(1, 'is required').max(2_000),
  events: z
    .array(WebhookEventTypeSchema)
    .min(1, 'choose at least one event')
    .default([...WEBHOOK_EVENT_TYPES]),
  format: WebhookFormatSchema.default('json'),
});

export const DeliveriesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: CursorParam.optional(),
});
