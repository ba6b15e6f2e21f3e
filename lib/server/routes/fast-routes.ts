// The custom server's fast path (scripts/server.mjs): `POST /api/chat/relay/:relayId`, a human's
// decision, `POST /api/hooks/claude-code`, `POST /api/hooks/gemini-cli` and `POST /api/hooks/codex`,
// asked before every tool call Claude Code, Gemini CLI or Codex makes, and
// `POST /api/mcp`, every message of an MCP client, are answered without Next's router, which costs 1.5-2 ms per request on a small VM
// before the route's code runs. The same handler as the Next route runs (routes/decide-relay.ts:
// origin check, auth, body limit, zod, error mapping); this module only hands it node's request as
// a RouteRequest (node-request.ts: what Next's adapter would show, built lazily) and writes the
// Response back. Anything it does not recognise exactly (another method or path, a trailing
// slash, an id Next would normalise) returns false, and Next serves it. Invariant: once it returns true the request is answered, errors included.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toResponse } from '../http/errors';
import { knownBody } from '../http/known-body';
import { NodeRouteRequest, type ListenAddress } from './node-request';
import type { RouteRequest } from '../http/route-request';
import { decideRelay, type RelayParams } from './decide-relay';
import { claudeCodeHook } from '../hooks/claude-code-route';
import { geminiCliHook } from '../hooks/gemini-cli-route';
import { codexHook } from '../hooks/codex-route';
import { mcpPost } from '../mcp-server/route';
import type { LaneOutcome } from '../mcp-server/express-lane';
import { mcpExpressLane } from '../mcp-server/express-lane-runtime';

export type { ListenAddress } from './node-request';
export type DecideHandler = (request: RouteRequest, context: { params: Promise<RelayParams> }) => Promise<Response>;
export type HookHandler = (
  request: RouteRequest,
  context: { params: Promise<Record<string, never>> },
) => Promise<Response>;

export type McpHandler = HookHandler;

const HOOK_PATH = '/api/hooks/claude-code';
const GEMINI_HOOK_PATH = '/api/hooks/gemini-cli';
const CODEX_HOOK_PATH = '/api/hooks/codex';
const MCP_PATH = '/api/mcp';

/** `POST <path>[?query]` exactly. */
function matchPost(path: string, method: string | undefined, url: string | undefined): boolean {
  if (method !== 'POST' || !url?.startsWith(path)) return false;
  return url.length === path.length || url[path.length] === '?';
}

/** `POST /api/hooks/claude-code[?query]` exactly (Claude Code's hook, called before every tool use). */
export const matchHook = (method: string | undefined, url: string | undefined) => matchPost(HOOK_PATH, method, url);

/** `POST /api/hooks/gemini-cli[?query]` exactly (Gemini CLI's hook command, called before every tool use). */
export const matchGeminiHook = (method: string | undefined, url: string | undefined) =>
  matchPost(GEMINI_HOOK_PATH, method, url);

/** `POST /api/hooks/codex[?query]` exactly (Codex CLI's hook command, called before every tool use). */
export const matchCodexHook = (method: string | undefined, url: string | undefined) =>
  matchPost(CODEX_HOOK_PATH, method, url);

/** `POST /api/mcp[?query]` exactly (every message of an MCP client; GET and DELETE stay with Next). */
export const matchMcp = (method: string | undefined, url: string | undefined) => matchPost(MCP_PATH, method, url);

/** Answers the request and returns true, or returns false without touching it. Never throws. */
export type FastRoutes = (req: IncomingMessage, res: ServerResponse, listen?: ListenAddress) => boolean;

const KEY = Symbol.for('gatehouse.fastRoutes');
const PREFIX = '/api/chat/relay/';
// RFC 3986 path characters. Anything else (or none) is left to Next, whose URL parsing may
// encode or normalise it: the fast path must never see a different id than the route would.
const SEGMENT = /^[A-Za-z0-9._~!$&'()*+,;=:@%-]+$/;

/** The relay id of `POST /api/chat/relay/<id>[?query]`, decoded as Next decodes params; else undefined. */
export function matchDecision(method: string | undefined, url: string | undefined): string | undefined {
  if (method !== 'POST' || !url?.startsWith(PREFIX)) return undefined;
  const query = url.indexOf('?', PREFIX.length);
  const segment = url.slice(PREFIX.length, query === -1 ? undefined : query);
  if (!SEGMENT.test(segment)) return undefined;
  let id = segment;
  if (segment.includes('%')) {
    try {
      id = decodeURIComponent(segment);
    } catch {
      return undefined; // Next answers 400 for a malformed escape
    }
  }
  // Dot segments (also as %2e) are resolved away by URL parsing; an encoded slash is Next's call.
  if (id === '.' || id === '..' || segment === '.' || segment === '..' || /[/\\]/.test(id)) return undefined;
  return id;
}

/** The MCP express lane (mcp-server/express-lane.ts): serves the request, or hands it back with the body it read. */
export type McpLane = (req: IncomingMessage, res: ServerResponse, request: NodeRouteRequest) => Promise<LaneOutcome>;

export function createFastRoutes(
  decide: DecideHandler,
  hook?: HookHandler,
  mcp?: McpHandler,
  geminiHook?: HookHandler,
  codexHookHandler?: HookHandler,
  mcpLane?: McpLane,
): FastRoutes {
  const exactRoutes: [HookHandler | undefined, typeof matchHook][] = [
    [hook, matchHook],
    [geminiHook, matchGeminiHook],
    [codexHookHandler, matchCodexHook],
    [mcp, matchMcp],
  ];
  return (req, res, listen) => {
    let relayId: string | undefined;
    try {
      const exact = exactRoutes.find(([handler, match]) => handler && match(req.method, req.url))?.[0];
      if (exact) {
        const run = (request: RouteRequest) => exact(request, { params: Promise.resolve({}) });
        const lane = exact === mcp ? mcpLane : undefined;
        void (lane ? serveMcp(req, res, listen, lane, run) : serve(req, res, listen, run)).catch(() => res.destroy());
        return true;
      }
      relayId = matchDecision(req.method, req.url);
    } catch {
      return false;
    }
    if (relayId === undefined) return false;
    void serve(req, res, listen, (request) => decide(request, { params: Promise.resolve({ relayId }) })).catch(() =>
      res.destroy(),
    );
    return true;
  };
}

/** Installs the fast path for scripts/server.mjs (instrumentation.ts, once the runtime's first start has ended, failed or not). */
export function installFastRoutes(): void {
  (globalThis as { [KEY]?: FastRoutes })[KEY] = createFastRoutes(
    decideRelay,
    claudeCodeHook,
    mcpPost,
    geminiCliHook,
    codexHook,
    mcpExpressLane(),
  );
}

/** The express lane first; what it hands back (with the body it read) is served as usual. */
async function serveMcp(
  req: IncomingMessage,
  res: ServerResponse,
  listen: ListenAddress | undefined,
  lane: McpLane,
  run: (request: RouteRequest) => Promise<Response>,
): Promise<void> {
  const request = new NodeRouteRequest(req, res, listen);
  let outcome: LaneOutcome;
  try {
    outcome = await lane(req, res, request);
  } catch {
    // The lane throws when the body could not be read (the client went away mid-request) or its
    // answer could not be written: nothing more can be said on this response.
    return void res.destroy();
  }
  if (outcome.served) return request.discard();
  if (outcome.body !== undefined) request.putBack(outcome.body);
  return serve(req, res, listen, run, request);
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  listen: ListenAddress | undefined,
  run: (request: RouteRequest) => Promise<Response>,
  request = new NodeRouteRequest(req, res, listen),
): Promise<void> {
  try {
    const response = await run(request);
    await send(res, response);
  } catch (error) {
    console.error('[gatehouse] fast route failed:', (error as Error)?.message ?? error);
    if (res.headersSent) res.destroy();
    else await send(res, toResponse(error)).catch(() => res.destroy());
  } finally {
    // Whatever the handler left unread (a 401 before the body, a 413 part way) is discarded, so
    // the connection can carry the next request, as Next does.
    request.discard();
  }
}

// Next's sendResponse: the status, every header but the framing ones (Node frames the body
// itself), Set-Cookie one by one. A JSON body is small, so it is sent in one write with a
// Content-Length rather than chunked; an event stream (an MCP call that waits) is written as it
// comes, and cancelled when the client goes away (what the handler reads as "not live").
const FRAMING_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

async function send(res: ServerResponse, response: Response): Promise<void> {
  if (response.headers.get('content-type')?.startsWith('text/event-stream')) return stream(res, response);
  const text = knownBody(response);
  if (text !== undefined) {
    writeHead(res, response);
    res.end(text);
    return;
  }
  const chunks: Uint8Array[] = [];
  const reader = response.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) chunks.push(read.value);
  writeHead(res, response);
  res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
}

function writeHead(res: ServerResponse, response: Response): void {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  response.headers.forEach((value, name) => {
    if (FRAMING_HEADERS.has(name) || name === 'set-cookie') return;
    res.setHeader(name, value);
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader('set-cookie', cookies);
}

async function stream(res: ServerResponse, response: Response): Promise<void> {
  const reader = response.body!.getReader();
  const gone = () => void reader.cancel(new Error('The client went away')).catch(() => {});
  res.once('close', gone);
  writeHead(res, response);
  res.flushHeaders();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      if (res.destroyed) return;
      if (!res.write(read.value))
        await new Promise<void>((resolve) => {
          res.once('drain', resolve);
          res.once('close', resolve);
        });
    }
    res.end();
  } finally {
    res.off('close', gone);
  }
}
