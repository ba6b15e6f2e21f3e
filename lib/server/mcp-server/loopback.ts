// Asked once, never twice: when Gatehouse's own agent reaches a tool through its own /api/mcp (set
// up as an upstream of itself), its gate has decided the call already. The agent proves it with a
// proof of this very call (tool and arguments) keyed by the installation's secret, never by the
// caller's address (every local client would skip the gate). The proof travels in the call's
// `_meta` under LOOPBACK_META and is bound to the API token the request carries, so a proof that
// reaches another upstream is worth nothing without that very token, and then only repeats the
// one call the gate already allowed.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const LOOPBACK_META = 'dev.gatehouse/loopback';

export const loopbackKey = (secret: string): Buffer =>
  createHmac('sha256', secret).update('gatehouse/mcp-loopback/v1').digest();

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
export function loopbackProof(key: Buffer, tool: string, args: unknown, authorization: string): string {
  const bearer = createHmac('sha256', key).update(authorization).digest('base64url');
  return createHmac('sha256', key)
    .update(`${tool}\n${canonical(args ?? {})}\n${bearer}`)
    .digest('base64url');
}

export function isLoopbackCall(
  key: Buffer,
  proof: unknown,
  tool: string,
  args: unknown,
  authorization: string | null,
): boolean {
  if (typeof proof !== 'string' || proof === '' || !authorization) return false;
  const expected = Buffer.from(loopbackProof(key, tool, args, authorization));
  const given = Buffer.from(proof);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/**
 * The agent's side: the proof for a call to an http upstream that is sent an Authorization header
 * (only Gatehouse can check it; to any other server it is noise).
 */
export function loopbackMeta(secret: string) {
  const key = loopbackKey(secret);
  return (tool: string, args: Record<string, unknown>, config: object) => {
    const authorization = Object.entries(
      ('headers' in config ? (config.headers as Record<string, string>) : undefined) ?? {},
    ).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
    return authorization ? { [LOOPBACK_META]: loopbackProof(key, tool, args, authorization) } : undefined;
  };
}
