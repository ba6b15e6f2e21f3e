// The express lane of POST /api/mcp (docs/decisions/0038): the common message, a lone tools/call
// that the policy allows at once, answered on node's request and response with the values it needs
// already in memory, without the route's Web objects, its JSON-RPC and SDK schemas, or the direct
// answer's set-up. It runs the same checks in the same pieces (the token cache, the signed session,
// the token's choice of tools, the tool's argument check, the gate's decision with its claim and
// records, the tool's run), through entry points that answer from memory or decline.
//
// Invariant: the lane hands the request back (`served: false`, with the body when it read it) for
// anything it does not serve exactly, and always before a decision is observed or recorded and
// before anything runs (the session's run may be opened, as the usual path would open it), so the
// usual path (route.ts) takes the request from the start and answers it as it always did.
// Once the gate has decided, the lane answers the request itself, errors included.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallToolResult, JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { can, type AuthUser } from '../../auth';
import { findUnstorable } from '../http/input';
import { trackCancel } from './cancel-registry';
import {
  acceptedHeaders,
  callResultMessage,
  failureMessage,
  KEEP_ALIVE_MS,
  sse,
  SSE_HEADERS,
  STREAM_AFTER_MS,
} from './direct';
import type { McpEndpointDeps } from './endpoint-deps';
import { gatedCallAtOnce } from './gated-call';
import { idTooLong } from './json-rpc';
import { decodeSessionId, type McpSessionState } from './session-id';
import { exposedBy } from './token-settings';

export interface ExpressLaneDeps {
  endpoint: McpEndpointDeps;
  /** The user of a Bearer `authorization` header when known without waiting (cachedTokenUser). */
  cachedUser(authorization: string): AuthUser | undefined;
  maxBodyBytes: number;
}

/** How the lane reads the body: once, whole, under the limit (NodeRouteRequest.readBody). */
export interface LaneRequest {
  readBody(maxBytes: number): Promise<Buffer | 'too_large'>;
  /** True once the client went away before the answer was finished. */
  readonly gone: boolean;
}

/** Served (the answer is written or being written), or handed back with the body if it was read. */
export type LaneOutcome = { served: true } | { served: false; body?: Buffer | 'too_large' };

const HANDED_BACK: LaneOutcome = { served: false };
const decoder = new TextDecoder();

/** The checks that need no body: the caller, the request's headers and its session. */
function admitted(
  req: IncomingMessage,
  deps: ExpressLaneDeps,
): { user: AuthUser; session: McpSessionState } | undefined {
  const { headers } = req;
  // A browser's request (Origin, Sec-Fetch-Site) is the usual path's to judge; a script's Bearer passes.
  if (headers.origin !== undefined || headers['sec-fetch-site'] !== undefined) return undefined;
  const authorization = headers.authorization;
  if (typeof authorization !== 'string') return undefined;
  const user = deps.cachedUser(authorization);
  if (!user?.tokenId || !can(user, 'runs:start')) return undefined;
  if (!acceptedHeaders({ get: (name) => single(headers[name]) })) return undefined;
  if (Number(headers['content-length'] ?? '0') > deps.maxBodyBytes) return undefined;
  const session = decodeSessionId(deps.endpoint.sessionKey, single(headers['mcp-session-id']));
  if (!session || session.owner !== user.id || session.tokenId !== user.tokenId) return undefined;
  return { user, session };
}

const single = (value: string | string[] | undefined): string | null =>
  typeof value === 'string' ? value : value === undefined ? null : value.join(', ');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const onlyKeys = (value: Record<string, unknown>, allowed: ReadonlySet<string>) =>
  Object.keys(value).every((key) => allowed.has(key));

const MESSAGE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments']);

/**
 * The one `tools/call` the body holds, exactly as the SDK's schemas accept it and without `_meta`
 * (a progress token, a loopback proof, a task: the usual path's), or undefined.
 */
function lonelyCall(text: string): { id: RequestId; name: string; args: Record<string, unknown> } | undefined {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isPlainObject(message) || !onlyKeys(message, MESSAGE_KEYS)) return undefined;
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== '2.0' || method !== 'tools/call') return undefined;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return undefined;
  // Refused by the usual path (json-rpc.ts).
  if (idTooLong(id)) return undefined;
  if (!isPlainObject(params) || !onlyKeys(params, PARAMS_KEYS) || typeof params.name !== 'string') return undefined;
  // Absent is no arguments; anything but an object (null included) is the SDK's schema's to refuse.
  const args = params.arguments === undefined ? {} : params.arguments;
  if (!isPlainObject(args) || Object.hasOwn(args, '__proto__')) return undefined;
  // What PostgreSQL could not store is the usual path's 400.
  if (findUnstorable(message)) return undefined;
  return { id: id as RequestId, name: params.name, args };
}

/** The call, its tool and its checked arguments, when everything about it is known without waiting. */
function readyCall(body: Buffer, session: McpSessionState, endpoint: McpEndpointDeps) {
  const call = lonelyCall(decoder.decode(body));
  if (!call) return undefined;
  const tool = endpoint.toolNow!(call.name);
  const exposed = endpoint.exposedNow!(session.tokenId);
  if (!tool || !exposed || !exposedBy(exposed.patterns)(tool.name)) return undefined;
  const parsed = tool.parse(call.args);
  return parsed.ok ? { call, tool, params: parsed.params } : undefined;
}

/** A check that throws hands the request back too (the usual path answers whatever it was). */
function attempt<T>(check: () => T | undefined): T | undefined {
  try {
    return check();
  } catch {
    return undefined;
  }
}

/** Serves the request, or hands it back untouched but for its body (see the invariant above). */
export async function expressMcpCall(
  req: IncomingMessage,
  res: ServerResponse,
  request: LaneRequest,
  deps: ExpressLaneDeps,
): Promise<LaneOutcome> {
  const { endpoint } = deps;
  if (!endpoint.toolNow || !endpoint.exposedNow || !endpoint.gate.decideAtOnce) return HANDED_BACK;
  const caller = attempt(() => admitted(req, deps));
  if (!caller) return HANDED_BACK;
  // Throws only when the body cannot be read (the client went away): then nobody can be answered.
  const body = await request.readBody(deps.maxBodyBytes);
  if (body === 'too_large') return { served: false, body };
  const handBack: LaneOutcome = { served: false, body };
  const ready = attempt(() => readyCall(body, caller.session, endpoint));
  if (!ready) return handBack;
  const { call, tool, params } = ready;
  const { session } = caller;

  const answer = new LaneAnswer(res, request);
  const { signal, release } = trackCancel(session.sid, call.id);
  let result: CallToolResult | undefined;
  try {
    result = await gatedCallAtOnce(
      endpoint,
      {
        tool,
        args: call.args,
        session,
        requestId: call.id,
        loopbackProof: undefined,
        authorization: req.headers.authorization ?? null,
        cancelled: signal,
        live: answer.live,
        send: async () => {},
      },
      params,
      answer.start,
    );
  } catch (error) {
    answer.finish(failureMessage(call.id, error));
    return { served: true };
  } finally {
    release();
  }
  if (!result) return handBack;
  answer.finish(callResultMessage(call.id, result));
  return { served: true };
}

/**
 * The answer as the direct answer writes it (direct.ts): JSON when the call ends within
 * STREAM_AFTER_MS, else an SSE stream opened then, with keep-alive comments, so no header timeout
 * runs out while a slow tool works.
 */
class LaneAnswer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly request: Pick<LaneRequest, 'gone'>,
  ) {}

  /** The call is allowed and about to run: from now on the answer is the lane's. */
  readonly start = (): void => {
    this.timer = setTimeout(() => this.open(), STREAM_AFTER_MS);
    this.timer.unref?.();
  };

  /** False once the client's response is gone: a result could not be delivered. */
  readonly live = (): boolean => !this.request.gone && !this.res.destroyed;

  finish(message: JSONRPCMessage): void {
    this.cancel();
    const { res } = this;
    if (res.destroyed) return;
    if (res.headersSent) {
      res.end(sse(message));
      return;
    }
    res.statusCode = 200;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(message));
  }

  /** Nothing more will be written here (the request is handed back, or finished). */
  cancel(): void {
    clearTimeout(this.timer);
    clearInterval(this.keepAlive);
  }

  private open(): void {
    const { res } = this;
    if (res.destroyed || res.headersSent) return;
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    this.keepAlive = setInterval(() => !res.destroyed && res.write(': keepalive\n\n'), KEEP_ALIVE_MS);
    this.keepAlive.unref?.();
  }
}
