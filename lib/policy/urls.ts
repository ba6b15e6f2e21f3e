// URL normalization and URL patterns. A URL is parsed with the WHATWG parser (lowercased
// scheme and host, IPv4 numeric forms and dot segments resolved, default port dropped), then
// userinfo and fragment are dropped and an IPv4-mapped IPv6 host is unwrapped, so a pattern is
// matched against what will actually be fetched. In a pattern `*` matches within one path
// segment (and never across the host's end), `**` any characters after the host. Matching is
// linear in the URL (wildcard.ts, or RE2).
import { canonicalHostname } from './hosts';
import { RE2JS } from 're2js';
import { escapeRegex } from './glob';
import { REGEX_STEPS_PER_INSTRUCTION } from './limits';
import { Lru } from './lru';
import { compileWildcard, type WildcardMatcher, type WildcardToken } from './wildcard';

export type UrlMatcher = WildcardMatcher;

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

// Compiling RE2 costs far more than matching; policies repeat their patterns.
const cache = new Lru<string, UrlMatcher>(1024);

/** A URL pattern's matcher, linear in the URL: wildcard matching, or RE2 where greedy matching would not be exact. */
export function compileUrlPattern(pattern: string): UrlMatcher {
  let matcher = cache.get(pattern);
  if (!matcher) {
    matcher = compileUncached(pattern);
    cache.set(pattern, matcher);
  }
  return matcher;
}

function compileUncached(pattern: string): UrlMatcher {
  const normalized = normalizePattern(pattern);
  if (normalized === '*' || normalized === '**') return { weight: 0, test: () => true };
  const schemeEnd = normalized.indexOf('://');
  const authorityEnd = schemeEnd < 0 ? 0 : findAuthorityEnd(normalized, schemeEnd + 3);
  const tokens: WildcardToken[] = [];
  for (let i = 0; i < normalized.length; i++) {
    const ch = normalized.charCodeAt(i);
    if (ch !== 0x2a /* * */) {
      tokens.push(ch);
      continue;
    }
    let stars = 1;
    while (normalized[i + 1] === '*') {
      i++;
      stars++;
    }
    tokens.push(i < authorityEnd ? IN_AUTHORITY : stars > 1 ? ANYTHING : IN_SEGMENT);
  }
  // `/**` at the end also matches the bare path.
  const last = tokens.length - 1;
  const optionalTail = last >= 1 && tokens[last] === ANYTHING && tokens[last - 1] === SLASH;
  const full = compileTokens(tokens);
  if (!optionalTail) return full;
  const bare = compileTokens(tokens.slice(0, -2));
  return { weight: full.weight + bare.weight, test: (href) => bare.test(href) || full.test(href) };
}

const IN_AUTHORITY: WildcardToken = { star: '/?#@' };
const IN_SEGMENT: WildcardToken = { star: '/?#' };
const ANYTHING: WildcardToken = { star: '' };
const SLASH = 0x2f;

function compileTokens(tokens: WildcardToken[]): UrlMatcher {
  const wildcard = compileWildcard(tokens);
  if (wildcard) return wildcard;
  // Stars that get stricter further on (`/**/x/*`): RE2 matches those, still in linear time.
  let source = '';
  for (const token of tokens) {
    if (typeof token === 'number') source += escapeRegex(String.fromCharCode(token));
    else if (typeof token === 'object') source += token.star === '' ? '.*' : `[^${escapeRegex(token.star)}]*`;
  }
  const re = RE2JS.compile(source, RE2JS.DOTALL);
  return { weight: 1 + re.programSize() * REGEX_STEPS_PER_INSTRUCTION, test: (href) => re.testExact(href) };
}

function findAuthorityEnd(text: string, start: number): number {
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (ch === '/' || ch === '?' || ch === '#') return i;
  }
  return text.length;
}
