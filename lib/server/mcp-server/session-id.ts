// An MCP session's state travels in its own id: who opened it (user and token), the client's name
// and whether it can answer elicitation, signed with a key derived from the server's secret. Any
// instance on the same secret reads it without a shared table or a sticky balancer, and a client
// cannot forge or borrow one (the owner is checked against the token on every request).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';

const SessionStateSchema = z.object({
  /** A random id: the run's external id. */
  sid: z.string().min(16).max(64),
  owner: z.string().min(1),
  tokenId: z.string().min(1),
  client: z.string().min(1).max(100),
  title: z.string().max(200),
  elicitation: z.boolean(),
  /** Without elicitation: decline an ask at once instead of waiting for a decision in Gatehouse. */
  declineWithoutElicitation: z.boolean(),
});

export type McpSessionState = z.infer<typeof SessionStateSchema>;

/** The per-purpose key, so a session id is never valid as a cookie signature or the reverse. */
export const mcpSessionKey = (secret: string): Buffer =>
  createHmac('sha256', secret).update('gatehouse/mcp-session/v1').digest();

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export function newSessionId(): string {
  return randomBytes(18).toString('base64url');
}

/** `<payload>.<signature>`, both base64url: visible ASCII only, as the transport requires. */
export function encodeSessionId(key: Buffer, state: McpSessionState): string {
  const payload = Buffer.from(JSON.stringify(SessionStateSchema.parse(state))).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** Session ids verified lately, per key: a client sends the same one with every message. */
const verified = new WeakMap<Buffer, Map<string, McpSessionState>>();
const MAX_VERIFIED = 1_000;

/** The state, or undefined for anything not signed by this key (never throws). */
export function decodeSessionId(key: Buffer, header: string | null | undefined): McpSessionState | undefined {
  if (!header || header.length > 2048) return undefined;
  let known = verified.get(key);
  const hit = known?.get(header);
  if (hit) return { ...hit };
  const state = verify(key, header);
  if (!state) return undefined;
  if (!known) verified.set(key, (known = new Map()));
  if (known.size >= MAX_VERIFIED) known.delete(known.keys().next().value!);
  known.set(header, state);
  return { ...state };
}

function verify(key: Buffer, header: string): McpSessionState | undefined {
  const [payload, signature, extra] = header.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const parsed = SessionStateSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
