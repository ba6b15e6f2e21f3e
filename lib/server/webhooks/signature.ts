// Webhook signatures, as Stripe and GitHub do them: HMAC-SHA256 over `<timestamp>.<raw body>`,
// sent as `Gatehouse-Signature: t=<unix seconds>,v1=<hex>`. The timestamp is signed too, so a
// receiver that rejects old timestamps also rejects replays. README shows the receiver's side.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signatureHeader(secret: string, body: string, timestampS: number): string {
  return `t=${timestampS},v1=${hmac(secret, timestampS, body)}`;
}

const hmac = (secret: string, timestampS: number, body: string) =>
  createHmac('sha256', secret).update(`${timestampS}.${body}`).digest('hex');

/**
 * The receiver's check: the header's signature matches the raw body and the timestamp is within
 * `toleranceS` of `nowS`. Never throws.
 */
export function verifySignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  { nowS = Math.floor(Date.now() / 1000), toleranceS = 300 }: { nowS?: number; toleranceS?: number } = {},
): boolean {
  if (!header) return false;
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isSafeInteger(t) || Math.abs(nowS - t) > toleranceS || typeof parts.v1 !== 'string') return false;
  const expected = Buffer.from(hmac(secret, t, body), 'hex');
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
