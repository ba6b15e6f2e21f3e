// Registering, listing and removing webhook endpoints as the API does it. The URL is checked
// (target.ts) before anything is stored; the signing secret is generated here, sealed, and shown
// once in the creation answer. No secret reaches a log or the audit.
import type { CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from '../../contract';
import type { Queries, WebhookDeliveryRow, WebhookEndpointRow, WebhookEvent, WebhookFormat } from '../../db';
import { AppError } from '../http/errors';
import type { Runtime } from '../runtime';
import { newSigningSecret } from './secret-box';
import { checkWebhookTarget, WebhookTargetError } from './target';

export const toWebhookEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  events: row.events,
  format: row.format,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
});

export const toWebhookDelivery = (row: WebhookDeliveryRow): WebhookDelivery => ({
  id: row.id,
  relayId: row.relayId,
  event: row.event,
  status: row.status,
  attempts: row.attempts,
  lastStatus: row.lastStatus,
  lastError: row.lastError,
  createdAt: row.createdAt.toISOString(),
  deliveredAt: row.deliveredAt?.toISOString() ?? null,
  nextAttemptAt: row.nextAttemptAt.toISOString(),
});

export async function registerEndpoint(
  rt: Pick<Runtime, 'q' | 'webhooks'>,
  input: { url: string; events: WebhookEvent[]; format: WebhookFormat },
  createdBy: string,
): Promise<CreatedWebhookEndpoint> {
  try {
    await checkWebhookTarget(input.url, rt.webhooks.sender.targetOptions());
  } catch (error) {
    if (error instanceof WebhookTargetError)
      throw new AppError('unprocessable:webhook_url', 422, `The webhook URL ${error.message}`, {
        fields: [{ path: 'url', message: error.message }],
      });
    throw error;
  }
  const secret = newSigningSecret();
  const row = await rt.q.webhooks.createEndpoint({
    url: input.url,
    events: [...new Set(input.events)],
    format: input.format,
    secret: rt.webhooks.box.seal(secret),
    createdBy,
  });
  rt.webhooks.sender.endpointsChanged();
  return { ...toWebhookEndpoint(row), secret };
}

export async function endpointOr404(q: Queries, id: string): Promise<WebhookEndpointRow> {
  const row = await q.webhooks.getEndpoint({ id });
  if (!row) throw new AppError('not_found:webhook', 404, 'No such webhook');
  return row;
}
