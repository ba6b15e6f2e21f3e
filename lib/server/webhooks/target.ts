// Where a webhook may point: http(s) only, never Gatehouse itself (a loop that would sign and post
// to our own API), and never a private, loopback or link-local address unless the operator turned
// that on (GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE). Checked at registration and again before each
// attempt; the connection is pinned to the address that was checked (no DNS rebinding). A name
// is given a time limit to resolve: a name server that never answers (the receiver's owner runs
// it) must not hold a registration, an attempt or the sender's shutdown.
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
  /** How long a name may take to resolve (default 5 s). */
  resolveTimeoutMs?: number;
}

export interface CheckedTarget {
  url: URL;
  pinned: ResolvedAddress;
}

const DEFAULT_RESOLVE_TIMEOUT_MS = 5_000;

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

/** The host as a resolver takes it (`[::1]` unbracketed). */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** The host as compared with another: `gate.example.` (fully qualified) is `gate.example`. */
const sameHost = (a: URL, b: URL) => hostOf(a).replace(/\.+$/, '') === hostOf(b).replace(/\.+$/, '');

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

/**
 * The host's addresses, or a WebhookTargetError once `timeoutMs` has passed. The lookup itself takes
 * no signal (getaddrinfo), so it is raced: the answer, if it ever comes, is dropped.
 */
async function resolveWithin(host: string, timeoutMs: number): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  if (family) return [{ address: host, family: family as 4 | 6 }];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new WebhookTargetError(`cannot be resolved within ${timeoutMs} ms: ${host}`)),
      timeoutMs,
    );
  });
  try {
    const found = (await Promise.race([lookup(host, { all: true }), late])) as ResolvedAddress[];
    if (found.length === 0) throw new Error('no address');
    return found;
  } catch (error) {
    if (error instanceof WebhookTargetError) throw error;
    throw new WebhookTargetError(`cannot be resolved: ${host}`);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the target is Gatehouse's public address (GATEHOUSE_PUBLIC_URL) in another spelling: the
 * same name (a trailing dot aside; URL parsing lowercases it) on the same port, or, written as an IP literal,
 * one of that name's addresses on the same port (a proxy answers a bare address with its default
 * site). A name that merely shares an address (a CDN) is another site and stays allowed.
 */
async function isPublicSelf(url: URL, publicUrl: string | undefined, timeoutMs: number): Promise<boolean> {
  if (!publicUrl) return false;
  const own = new URL(publicUrl);
  if (portOf(url) !== portOf(own)) return false;
  if (sameHost(url, own)) return true;
  if (!isIP(hostOf(url))) return false;
  const addresses = await resolveWithin(hostOf(own), timeoutMs).catch(() => []);
  const target = plainIPv4(hostOf(url));
  return addresses.some((a) => plainIPv4(a.address) === target);
}

export async function checkWebhookTarget(raw: string, options: TargetOptions): Promise<CheckedTarget> {
  const url = parseWebhookUrl(raw);
  const timeoutMs = options.resolveTimeoutMs ?? DEFAULT_RESOLVE_TIMEOUT_MS;
  if (await isPublicSelf(url, options.publicUrl, timeoutMs)) throw new WebhookTargetError('points at Gatehouse itself');
  const [pinned] = await resolveWithin(hostOf(url), timeoutMs);
  const range = restrictedRange(pinned!.address);
  if (
    portOf(url) === options.ownPort &&
    (range === 'loopback' || range === 'unspecified' || localAddresses().has(plainIPv4(pinned!.address)))
  )
    throw new WebhookTargetError('points at Gatehouse itself');
  if (range && !options.allowPrivate)
    throw new WebhookTargetError(
      `resolves to a ${range} address (${pinned!.address}); set GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE=1 to allow local targets`,
    );
  return { url, pinned: pinned! };
}
