// Asked once, never twice: when Gatehouse's own agent reaches a tool through its own /api/mcp (set
// up as an upstream of itself), its gate has decided the call already. The agent proves it with a
// proof of this very call (tool, arguments, and which call of which run it is) keyed by the
// installation's secret, never by the caller's address (every local client would skip the gate).
// The proof travels in the call's `_meta` under LOOPBACK_META and is bound to the API token the
// request carries, so a proof that reaches another upstream is worth nothing without that very
// token. It is good for one run of the call: the endpoint claims (run, `loopback:<call>`) before
// the tool runs, so the same proof sent again (a replay, a retry) runs nothing.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { McpCallOrigin } from '../../agent/tools/mcp/tool';

export const LOOPBACK_META = 'dev.gatehouse/loopback';

/** Which call of which run the gate decided (the agent's run and tool call ids). */
export type LoopbackOrigin = McpCallOrigin;

/** What `_meta[LOOPBACK_META]` holds. */
interface LoopbackMetaValue extends LoopbackOrigin {
  proof: string;
}

export const loopbackKey = (secret: string): Buffer =>
  createHmac('sha256', secret).update('gatehouse/mcp-loopback/v2').digest();

/** JSON with object keys sorted, so the agent and the server sign the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** `authorization`: the request's Authorization header value (`Bearer <token>`), exactly as sent. */
export function loopbackProof(
  key: Buffer,
  tool: string,
  args: unknown,
  authorization: string,
  origin: LoopbackOrigin,
): string {
  const bearer = createHmac('sha256', key).update(authorization).digest('base64url');
  return createHmac('sha256', key)
    .update(JSON.stringify([tool, canonical(args ?? {}), bearer, origin.run, origin.call]))
    .digest('base64url');
}

/** The `_meta` value the agent sends with a call it decided. */
export function loopbackMetaValue(
  key: Buffer,
  tool: string,
  args: unknown,
  authorization: string,
  origin: LoopbackOrigin,
): LoopbackMetaValue {
  return { run: origin.run, call: origin.call, proof: loopbackProof(key, tool, args, authorization, origin) };
}

/** A run id, a call id (an MCP call's is `mcp-` and a request id of up to 200 characters) or a proof. */
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= 256;

/**
 * The call of Gatehouse's own agent that `meta` (the request's `_meta[LOOPBACK_META]`) proves this
 * request to be, or undefined: no proof, a malformed one, or one made for another call, arguments,
 * token or installation.
 */
export function loopbackOrigin(
  key: Buffer,
  meta: unknown,
  tool: string,
  args: unknown,
  authorization: string | null,
): LoopbackOrigin | undefined {
  if (!authorization || typeof meta !== 'object' || meta === null) return undefined;
  const { run, call, proof } = meta as Partial<Record<keyof LoopbackMetaValue, unknown>>;
  if (!isText(run) || !isText(call) || !isText(proof)) return undefined;
  const expected = Buffer.from(loopbackProof(key, tool, args, authorization, { run, call }));
  const given = Buffer.from(proof);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { run, call } : undefined;
}

/**
 * The agent's side: the proof for a call to an http upstream that is sent an Authorization header
 * (only Gatehouse can check it; to any other server it is noise). No origin (a call made outside a
 * run): no proof, and the endpoint decides the call as any other.
 */
export function loopbackMeta(secret: string) {
  const key = loopbackKey(secret);
  return (tool: string, args: Record<string, unknown>, config: object, origin?: LoopbackOrigin) => {
    if (!origin) return undefined;
    const authorization = Object.entries(
      ('headers' in config ? (config.headers as Record<string, string>) : undefined) ?? {},
    ).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    return authorization ? { [LOOPBACK_META]: loopbackMetaValue(key, tool, args, authorization, origin) } : undefined;
  };
}
