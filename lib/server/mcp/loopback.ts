// Asked once, never twice: when Gatehouse's own agent reaches a tool through its own /api/mcp (set
// up as an upstream of itself), its gate has decided the call already. The agent proves it with a
// proof of this very call (tool and arguments) keyed by the installation's secret, never by the
// caller's address (every local client would skip the gate). The proof travels in the call's
// `_meta` under LOOPBACK_META. A proof leaked to a third party only
// repeats a call the gate already allowed, and still needs an API token to be heard.
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

export const loopbackProof = (key: Buffer, tool: string, args: unknown): string =>
  createHmac('sha256', key)
    .update(`${tool}\n${canonical(args ?? {})}`)
    .digest('base64url');

export function isLoopbackCall(key: Buffer, proof: unknown, tool: string, args: unknown): boolean {
  if (typeof proof !== 'string' || proof === '') return false;
  const expected = Buffer.from(loopbackProof(key, tool, args));
  const given = Buffer.from(proof);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
