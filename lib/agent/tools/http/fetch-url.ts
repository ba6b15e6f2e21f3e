// fetch_url: an HTTP(S) GET with a size cap and a time cap. Redirects are followed by hand and
// every hop is put to the policy again; after DNS, addresses in loopback, private, link-local and
// similar ranges are refused unless a rule of the administrator's policy names the destination
// (named-destinations.ts: no wildcard, no run's own permissions, grant, mode or approval), and
// the connection goes to the very address that was checked (see pinned-http.ts).
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { z } from 'zod';
import type { Decision } from '../../../policy';
import { restrictedRange } from './ip-ranges';
import { namingRuleFor } from './named-destinations';
import { requestPinned, type ResolvedAddress } from './pinned-http';
import { describeResponse } from './http-response';
import { ToolError, type ToolContext, type ToolDefinition } from '../types';

export interface FetchUrlToolOptions {
  /** Cap on the body (default 512 KiB). */
  maxBytes?: number;
  /** Time limit for the whole fetch, redirects included (default 15 s). */
  timeoutMs?: number;
  /** Redirects followed before giving up (default 5). */
  maxRedirects?: number;
  /** Resolves a host name to every address it has (default: the system resolver, hosts file included). */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
}

const systemLookup = async (hostname: string): Promise<ResolvedAddress[]> =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const inputSchema = z.object({
  url: z.string().min(1).max(8192).describe('An http:// or https:// URL.'),
});
export type FetchUrlInput = z.infer<typeof inputSchema>;

export function createFetchUrlTool(options: FetchUrlToolOptions = {}): ToolDefinition<FetchUrlInput> {
  const maxBytes = options.maxBytes ?? 512 * 1024;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxRedirects = options.maxRedirects ?? 5;
  const lookup = options.lookup ?? systemLookup;
  return {
    name: 'fetch_url',
    description:
      `Fetch a URL with GET (http and https only) and return the status, content type and text body ` +
      `(cut at ${Math.round(maxBytes / 1024)} KiB). Redirects are followed (at most ${maxRedirects}); ` +
      `local and private network addresses are refused unless the administrator's policy names them.`,
    inputSchema,
    risk: 'read_only',
    paramKinds: { url: 'url' },
    async execute(input, ctx) {
      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([deadline, ctx.signal]);
      try {
        let url = httpUrl(input.url);
        const visited = [url.href];
        for (let hop = 0; ; hop++) {
          // The first URL was decided before execute was called; each redirect is a new call.
          if (hop > 0) evaluateHop(ctx, url);
          const address = await resolveChecked(url, ctx, lookup, signal);
          const response = await requestPinned(url, address, signal);
          const location = response.headers.location;
          if (!REDIRECTS.has(response.statusCode ?? 0) || !location) {
            return await describeResponse(response, { url: url.href, visited, maxBytes });
          }
          response.destroy();
          if (hop >= maxRedirects)
            throw new ToolError('refused', `Stopped after ${maxRedirects} redirects (${visited.join(' -> ')}).`);
          url = httpUrl(new URL(location, url).href);
          visited.push(url.href);
        }
      } catch (error) {
        if (error instanceof ToolError) throw error;
        if (deadline.aborted)
          throw new ToolError('timeout', `fetch_url: ${input.url} did not answer within ${timeoutMs / 1000} s.`);
        if (ctx.signal.aborted) throw new ToolError('failed', 'fetch_url: aborted (run cancelled).');
        const message = error instanceof Error ? error.message : String(error);
        throw new ToolError('failed', `fetch_url: ${input.url}: ${message}`);
      }
    },
  };
}

export const fetchUrlTool = createFetchUrlTool();

function httpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError('invalid_input', `fetch_url: "${text}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ToolError('refused', `fetch_url: only http and https URLs are fetched, not ${url.protocol} (${text}).`);
  }
  return url;
}

/** A redirect hop is fetched only if the policy allows it outright; ask and deny both stop. */
function evaluateHop(ctx: ToolContext, url: URL): Decision {
  const decision = ctx.evaluate({ tool: 'fetch_url', params: { url: url.href } });
  if (decision.action !== 'allow') {
    throw new ToolError(
      'refused',
      `fetch_url: redirect to ${url.href} is not allowed by the policy (${decision.action}): ${decision.explanation}`,
    );
  }
  return decision;
}

/**
 * The address to connect to. If any address the host resolves to is restricted, a rule of the
 * administrator's policy must name the destination: whatever allowed the call (a run's own
 * permissions, a wildcard, a grant, a mode, a person's approval) is not enough for local networks.
 */
async function resolveChecked(
  url: URL,
  ctx: ToolContext,
  lookup: (hostname: string) => Promise<ResolvedAddress[]>,
  signal: AbortSignal,
): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  const addresses: ResolvedAddress[] =
    family === 4 || family === 6 ? [{ address: host, family }] : await abortable(lookup(host), signal);
  const first = addresses[0];
  if (!first) throw new ToolError('failed', `fetch_url: ${host} did not resolve to any address.`);
  const restricted = addresses.filter((a) => restrictedRange(a.address) !== undefined).map((a) => a.address);
  if (restricted.length > 0) {
    const call = { tool: 'fetch_url', params: { url: url.href }, ...(ctx.agent ? { agent: ctx.agent } : {}) };
    if (!namingRuleFor(ctx.trustedPolicy, call, url, restricted)) {
      const shown = restricted[0]!;
      throw new ToolError(
        'refused',
        `fetch_url: ${host} resolves to ${shown} (${restrictedRange(shown)}); such addresses are fetched only when a rule of ` +
          `the administrator's policy allows this URL and names its host or address without a wildcard ` +
          `(a run's own permissions, grants, modes and approvals do not).`,
      );
    }
  }
  return first;
}

/** DNS lookups take no signal: race them, so a timeout or cancel is not held up by a slow resolver. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
