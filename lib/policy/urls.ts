// URL normalization and URL patterns. A URL is parsed with the WHATWG parser (lowercased
// scheme and host, IPv4 numeric forms and dot segments resolved, default port dropped), then
// userinfo and fragment are dropped and an IPv4-mapped IPv6 host is unwrapped, so a pattern is
// matched against what will actually be fetched. In a pattern `*` matches within one path
// segment (and never across the host's end), `**` any characters after the host.
import { canonicalHostname } from './hosts';
import { escapeRegex } from './glob';

export interface NormalizedUrl {
  href: string;
  host: string;
  origin: string;
}

export function normalizeUrl(input: string): NormalizedUrl | undefined {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return undefined;
  }
  const host = canonicalHostname(url.hostname) ?? '';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const port = url.port ? `:${url.port}` : '';
  const authority = url.host === '' && host === '' ? '' : `${hostPart}${port}`;
  const origin = `${url.protocol}//${authority}`;
  return { href: `${origin}${url.pathname}${url.search}`, host, origin };
}

/** Normalizes the literal parts of a URL pattern the same way URLs are normalized. */
function normalizePattern(pattern: string): string {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)(.*)$/s.exec(pattern.trim());
  if (!match) return pattern.trim();
  const [, scheme, authority, rest] = match;
  let host = authority!.includes('@') ? authority!.slice(authority!.lastIndexOf('@') + 1) : authority!;
  host = host.toLowerCase();
  let port = '';
  const portMatch = /^(.*?)(:\d+|:\*)$/.exec(host);
  if (portMatch && !host.endsWith(']')) {
    host = portMatch[1]!;
    port = portMatch[2]!;
  }
  const defaultPort = scheme!.toLowerCase() === 'https' ? ':443' : scheme!.toLowerCase() === 'http' ? ':80' : '';
  if (port === defaultPort) port = '';
  if (!host.includes('*')) {
    const normalized = normalizeUrl(`${scheme}://${host}${port}/`);
    if (normalized) return `${normalized.origin}${rest === '' ? '/' : rest}`;
  }
  while (host.endsWith('.')) host = host.slice(0, -1);
  return `${scheme!.toLowerCase()}://${host}${port}${rest === '' ? '/' : rest}`;
}

export function compileUrlPattern(pattern: string): (href: string) => boolean {
  const normalized = normalizePattern(pattern);
  if (normalized === '*' || normalized === '**') return () => true;
  const schemeEnd = normalized.indexOf('://');
  const authorityEnd = schemeEnd < 0 ? 0 : findAuthorityEnd(normalized, schemeEnd + 3);
  let source = '';
  for (let i = 0; i < normalized.length; i++) {
    const ch = normalized[i]!;
    if (ch === '*') {
      let stars = 1;
      while (normalized[i + 1] === '*') {
        i++;
        stars++;
      }
      const inAuthority = i < authorityEnd;
      source += inAuthority ? '[^/?#@]*' : stars > 1 ? '.*' : '[^/?#]*';
      // `/**` at the end also matches the bare path.
    } else {
      source += escapeRegex(ch);
    }
  }
  source = source.replace(/\\\/\.\*$/, '(?:/.*)?');
  const regex = new RegExp(`^${source}$`, 's');
  return (href) => regex.test(href);
}

function findAuthorityEnd(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '/' || ch === '?' || ch === '#') return i;
  }
  return text.length;
}
