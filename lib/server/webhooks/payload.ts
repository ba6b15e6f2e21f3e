// What a webhook receives: the JSON event, or a Slack incoming-webhook message (`text` + `blocks`)
// with a button to the approval page. Built at send time from the stored relay, which never
// changes once created (request) or settled (outcome), so every retry sends the same content.
import { createHash } from 'node:crypto';
import type { RelayRow, WebhookEvent, WebhookFormat } from '../../db';
import { cutText } from '../../db/storable-json';

/** Params above this many bytes of JSON are sent as a digest (their size and SHA-256). */
export const PARAMS_CAP_BYTES = 4_096;

export interface WebhookEventBody {
  id: string;
  type: WebhookEvent;
  createdAt: string;
  data: {
    relay: {
      id: string;
      runId: string;
      sessionId: string;
      agentId: string;
      tool: string;
      params?: Record<string, unknown>;
      paramsDigest?: { sha256: string; bytes: number };
      risk?: string;
      why: string;
      deadline: string;
      url: string;
    };
    outcome?: { status: string; decidedBy: string | null; decidedAt: string | null; reason: string | null };
  };
}

export const approvalUrl = (publicUrl: string, relayId: string) =>
  `${publicUrl}/approvals/${encodeURIComponent(relayId)}`;

export function eventBody(
  deliveryId: string,
  event: WebhookEvent,
  relay: RelayRow,
  publicUrl: string,
): WebhookEventBody {
  const paramsJson = JSON.stringify(relay.params);
  const bytes = Buffer.byteLength(paramsJson);
  const settled = event !== 'relay.created';
  return {
    id: deliveryId,
    type: event,
    createdAt: ((settled ? relay.decidedAt : relay.createdAt) ?? relay.createdAt).toISOString(),
    data: {
      relay: {
        id: relay.id,
        runId: relay.runId,
        sessionId: relay.sessionId,
        agentId: relay.agentId,
        tool: relay.tool,
        ...(bytes <= PARAMS_CAP_BYTES
          ? { params: relay.params }
          : { paramsDigest: { sha256: createHash('sha256').update(paramsJson).digest('hex'), bytes } }),
        ...(relay.request.risk ? { risk: relay.request.risk } : {}),
        why: relay.request.decision.explanation,
        deadline: relay.expiresAt.toISOString(),
        url: approvalUrl(publicUrl, relay.id),
      },
      ...(settled
        ? {
            outcome: {
              status: relay.status,
              decidedBy: relay.decidedBy,
              decidedAt: relay.decidedAt?.toISOString() ?? null,
              reason: relay.reason,
            },
          }
        : {}),
    },
  };
}

/** One line saying what the call is: the command, path or URL when there is one. */
export function summary(tool: string, params: Record<string, unknown>): string {
  const main = ['command', 'path', 'url', 'file_path'].map((k) => params[k]).find((v) => typeof v === 'string');
  const text = typeof main === 'string' ? main : JSON.stringify(params);
  return `${tool}: ${text.length > 200 ? `${cutText(text, 199)}…` : text}`;
}

const HEADLINES: Record<WebhookEvent, string> = {
  'relay.created': 'Approval needed',
  'relay.resolved': 'Approval decided',
  'relay.expired': 'Approval expired',
};

/** A Slack incoming-webhook message: `text` for notifications, `blocks` for the message itself. */
export function slackBody(body: WebhookEventBody): Record<string, unknown> {
  const { relay, outcome } = body.data;
  const call = summary(relay.tool, relay.params ?? {});
  const what = outcome ? ` — ${outcome.status}${outcome.decidedBy ? ` by ${outcome.decidedBy}` : ''}` : '';
  const text = `${HEADLINES[body.type]}: ${call}${what}`;
  return {
    text,
    blocks: [
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `*${HEADLINES[body.type]}*${what}\n\`${call.replace(/`/g, "'")}\`` },
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `Agent ${relay.agentId} · ${relay.why}` }] },
      {
        type: 'actions',
        elements: [{ type: 'button', text: { type: 'plain_text', text: 'Open approval' }, url: relay.url }],
      },
    ],
  };
}

export function renderBody(format: WebhookFormat, body: WebhookEventBody): string {
  return JSON.stringify(format === 'slack' ? slackBody(body) : body);
}
