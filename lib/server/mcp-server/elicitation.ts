// Elicitation as a second place to answer an ask: Gatehouse sends `elicitation/create` (form mode,
// no fields) under an id that names the relay and is bound to the session that was asked, so the
// client's answer, whichever instance it reaches, decides that relay like a click in the browser.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const PREFIX = 'gatehouse-elicit';

const tag = (key: Buffer, sid: string, relayId: string) =>
  createHmac('sha256', key).update(`elicit\n${sid}\n${relayId}`).digest('base64url').slice(0, 22);

export const elicitationId = (key: Buffer, sid: string, relayId: string): string =>
  `${PREFIX}.${relayId}.${tag(key, sid, relayId)}`;

/** The relay an answer is for, or undefined when the id is not one this session was sent. */
export function relayOfElicitation(key: Buffer, sid: string, id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const [prefix, relayId, given, extra] = id.split('.');
  if (prefix !== PREFIX || !relayId || !given || extra !== undefined) return undefined;
  const expected = Buffer.from(tag(key, sid, relayId));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? relayId : undefined;
}

/** The confirmation: no fields, only the prompt; accept approves once, decline or cancel denies. */
export function elicitationRequest(id: string, message: string): JSONRPCRequest {
  return {
    jsonrpc: '2.0',
    id,
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
  };
}

export function elicitationPrompt(tool: string, params: Record<string, unknown>): string {
  const args = JSON.stringify(params);
  const shown = args.length > 500 ? `${args.slice(0, 500)}…` : args;
  return `Gatehouse asks before this call runs: ${tool} ${shown}. Accept to allow it once; decline to deny it. It can also be decided in Gatehouse.`;
}

const AnswerSchema = z.object({ action: z.enum(['accept', 'decline', 'cancel']) });

/** A client's answer as a decision; undefined for an error or a malformed result (the ask stays open). */
export function answerOf(result: unknown): { approved: boolean; reason?: string } | undefined {
  const parsed = AnswerSchema.safeParse(result);
  if (!parsed.success) return undefined;
  if (parsed.data.action === 'accept') return { approved: true };
  return { approved: false, reason: `The MCP client answered ${parsed.data.action} to the confirmation` };
}
