// Where a webhook may point: http(s) only, never Gatehouse itself (a loop that would sign and post
// to our own API), and never a private, loopback or link-local address unless the operator turned
// that on (GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE). Checked at registration and again before each
// attempt; the connection is pinned to the address that was checked (no DNS rebinding).
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { restrictedRange } from '../../agent/tools/http/ip-ranges';
import type { ResolvedAddress } from '../../agent/tools/http/pinned-http';

export class WebhookTargetError extends Error {
  readonly code = 'invalid_webhook_url';
}

export interface TargetOptions {
  allowPrivate: boolean;
  /** The port this server listens on. */
  ownPort: number;
  /** GATEHOUSE_PUBLIC_URL, if set. */
  publicUrl?: string;
}

export interface CheckedTarget {
  url: URL;
  pinned: ResolvedAddress;
}

/** Parses and checks a URL without resolving it (the fast part, for a 400 before any DNS). */
export function parseWebhookUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError('must be an absolute http:// or https:// URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new WebhookTargetError('must be an http:// or https:// URL');
  if (url.username || url.password)
    throw new WebhookTargetError('must not carry credentials; the signature authenticates us');
  return url;
}

const portOf = (url: URL) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/**
 * An IPv4-mapped IPv6 address as the IPv4 address it reaches (`::ffff:10.0.0.5`, which URL parsing
 * writes `::ffff:a00:5`); any other address as it is.
 */
function plainIPv4(address: string): string {
  const mapped = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!mapped) return address;
  if (mapped[1]) return mapped[1];
  const high = parseInt(mapped[2]!, 16);
  const low = parseInt(mapped[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function localAddresses(): Set<string> {
  const addresses = new Set(['127.0.0.1', '::1', '0.0.0.0', '::']);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) addresses.add(a.address);
  return addresses;
}

export async function checkWebhookTarget(raw: string, options: TargetOptions): Promise<CheckedTarget> {
  const url = parseWebhookUrl(raw);
  if (options.publicUrl && new URL(options.publicUrl).origin === url.origin)
    throw new WebhookTargetError('points at Gatehouse itself');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let pinned: ResolvedAddress;
  try {
    const family = isIP(host);
    pinned = family ? { address: host, family: family as 4 | 6 } : ((await lookup(host)) as ResolvedAddress);
  } catch {
    throw new WebhookTargetError(`cannot be resolved: ${host}`);
  }
  const range = restrictedRange(pinned.address);
  if (
    portOf(url) === options.ownPort &&
    (range === 'loopback' || range === 'unspecified' || localAddresses().has(plainIPv4(pinned.address)))
  )
    throw new WebhookTargetError('points at Gatehouse itself');
  if (range && !options.allowPrivate)
    throw new WebhookTargetError(
      `resolves to a ${range} address (${pinned.address}); set GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE=1 to allow local targets`,
    );
  return { url, pinned };
}
