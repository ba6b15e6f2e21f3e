// Same-origin check for state-changing requests (CSRF defence on top of SameSite=Lax cookies).
//
// Trust assumption: the request's own origin is taken from the request URL, the Host header and the
// X-Forwarded-Host / X-Forwarded-Proto headers (a proxy in front sets them; Next sets them from the
// socket when none did). A page in a victim's browser cannot set Host or X-Forwarded-* on a
// cross-origin request (a custom header needs a CORS preflight, which Gatehouse never grants), so
// considering them cannot make an attacker's Origin match. What an attacker controls is Origin
// itself (its own site), and that is what must match. A non-browser client can forge anything, but
// it has no victim's cookie to ride on: it must authenticate itself.
import { ForbiddenError } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type OriginCheck =
  | { ok: true; reason: 'safe_method' | 'origin_match' | 'fetch_site' | 'bearer' }
  | { ok: false; reason: 'origin_mismatch' | 'cross_site' | 'no_origin' };

type RequestLike = Pick<Request, 'method' | 'url'> & { headers: Pick<Headers, 'get'> };

function normalize(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

const first = (value: string | null) => value?.split(',')[0]?.trim() || undefined;

/** The origins this request may legitimately come from (the server's own, as the browser saw it). */
export function ownOrigins(request: RequestLike): Set<string> {
  const url = new URL(request.url);
  const proto = first(request.headers.get('x-forwarded-proto'))?.toLowerCase() ?? url.protocol.replace(/:$/, '');
  const candidates = [url.origin];
  for (const host of [first(request.headers.get('x-forwarded-host')), first(request.headers.get('host'))]) {
    if (host) candidates.push(`${proto}://${host}`, `${url.protocol}//${host}`);
  }
  return new Set(candidates.map(normalize).filter((o): o is string => o !== undefined));
}

const hasBearer = (request: RequestLike) => /^Bearer\s+\S/i.test(request.headers.get('authorization') ?? '');

/**
 * GET/HEAD/OPTIONS pass. Otherwise: an `Origin` header must be one of `ownOrigins` (or
 * `allowedOrigins`); without one, `Sec-Fetch-Site: same-origin` (or `none`, a user-typed
 * navigation) passes; without either, only a request carrying a Bearer token passes (a script,
 * which is not a browser riding on a cookie). Anything else is refused: deny when unsure.
 */
export function checkOrigin(
  request: RequestLike,
  { allowedOrigins = [] }: { allowedOrigins?: readonly string[] } = {},
): OriginCheck {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return { ok: true, reason: 'safe_method' };
  const origin = request.headers.get('origin');
  if (origin !== null) {
    // "null" (sandboxed frames, some redirects) normalizes to undefined and never matches.
    const given = normalize(origin);
    const allowed = ownOrigins(request);
    for (const extra of allowedOrigins) allowed.add(normalize(extra) ?? extra);
    return given !== undefined && allowed.has(given)
      ? { ok: true, reason: 'origin_match' }
      : { ok: false, reason: 'origin_mismatch' };
  }
  const site = request.headers.get('sec-fetch-site')?.toLowerCase();
  if (site === 'same-origin' || site === 'none') return { ok: true, reason: 'fetch_site' };
  if (site) return { ok: false, reason: 'cross_site' };
  return hasBearer(request) ? { ok: true, reason: 'bearer' } : { ok: false, reason: 'no_origin' };
}

export function isSameOrigin(request: RequestLike, options?: { allowedOrigins?: readonly string[] }): boolean {
  return checkOrigin(request, options).ok;
}

/** Throws ForbiddenError `forbidden:origin` (403) for a cross-origin state-changing request. */
export function assertSameOrigin(request: RequestLike, options?: { allowedOrigins?: readonly string[] }): void {
  if (!checkOrigin(request, options).ok) throw new ForbiddenError('origin', 'Cross-origin requests are not allowed');
}
