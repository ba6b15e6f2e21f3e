// A tools/call to an upstream Streamable HTTP server in one POST, on the session the SDK's client
// opened (its id and protocol version), without the SDK's per-request machinery (its request
// bookkeeping, the Response-and-zod round trips of its transport), which cost about as much as the
// second HTTP hop itself. Same protocol, same outcome: the answer may be JSON or an SSE stream (its
// other messages, notifications or the server's own requests, go to the SDK's client as if its
// transport had read them; a stream the server ends early after an event id is resumed with GET
// and Last-Event-ID); redirects are followed only within the server's origin; a timeout or an
// abort cancels the request (notifications/cancelled) and fails the call, and so does the client's
// closing; an error answer is an McpError; an HTTP failure is an Error (the caller treats the
// server as gone).
import {
  ErrorCode,
  JSONRPCMessageSchema,
  McpError,
  type CallToolResult,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  type JSONRPCResultResponse,
} from '@modelcontextprotocol/sdk/types.js';
import type { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { checkCallToolResult } from './call-tool-result';
import { get, mediaType, post, type PostAnswer } from './http-post';
import { readSse } from './http-sse';
import { isError, isResult } from './message-kind';

export interface HttpCallSession {
  url: URL;
  /** The configured headers (the server's credentials). */
  headers: Record<string, string>;
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  /** A message on the answer that is not the call's own (a notification, a request of the server). */
  onOther(message: JSONRPCMessage): void;
  /** Tells the server the call is abandoned (notifications/cancelled through the SDK's client). */
  cancel(requestId: string, reason: string): void;
  /** Aborted when the SDK's client closes: the calls in flight fail at once with its reason, as its own do. */
  closed?: AbortSignal;
}

export interface HttpCallOptions {
  signal: AbortSignal;
  timeoutMs: number;
}

/** As the SDK's transport: a redirect is followed at most this many times, and only within the origin. */
const MAX_REDIRECTS = 5;
/** As the SDK's transport: the wait before resuming a stream when its server named none. */
const DEFAULT_RETRY_MS = 1_000;
/** A stream resumed this often without the answer is given up (the call's timeout bounds it too). */
const MAX_RESUMES = 1_000;
let counter = 0;

export async function callToolOverHttp(
  session: HttpCallSession,
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
  { signal, timeoutMs }: HttpCallOptions,
): Promise<CallToolResult> {
  // Its own id space: never one of the SDK client's numeric ids on the same session.
  const id = `gatehouse-${++counter}`;
  const abort = new AbortController();
  let failure: Error | undefined;
  const stop = (error: Error, reason: string) => {
    if (failure) return;
    failure = error;
    abort.abort(error);
    session.cancel(id, reason);
  };
  const onAbort = () =>
    stop(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)), String(signal.reason));
  const onClosed = () => stop(session.closed!.reason as Error, 'the connection closed');
  if (signal.aborted) throw signal.reason;
  if (session.closed?.aborted) throw session.closed.reason;
  const headers = {
    ...session.headers,
    ...(session.sessionId ? { 'mcp-session-id': session.sessionId } : {}),
    ...(session.protocolVersion ? { 'mcp-protocol-version': session.protocolVersion } : {}),
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });
  // Sent first (written now on a kept-alive connection): what watches the call (the caller's
  // signal, the client's closing, the timeout) is set up while the server works on it. Nothing can
  // happen in between: this is all one synchronous step.
  const sent = withinOrigin(session.url, (url) => post(url, headers, body, abort.signal));
  signal.addEventListener('abort', onAbort, { once: true });
  session.closed?.addEventListener('abort', onClosed, { once: true });
  const timer = setTimeout(
    () => stop(new McpError(ErrorCode.RequestTimeout, 'Request timed out', { timeout: timeoutMs }), 'timeout'),
    timeoutMs,
  );
  try {
    const response = await sent;
    if (response.status < 200 || response.status >= 300) {
      response.stream?.destroy();
      throw new Error(`Error POSTing to endpoint (HTTP ${response.status}): ${(response.text ?? '').slice(0, 500)}`);
    }
    const type = mediaType(response.headers);
    const answer =
      type === 'application/json' && response.text !== undefined
        ? ownAnswer(id, JSON.parse(response.text), session)
        : type === 'text/event-stream' && response.stream
          ? await answerFromStream(id, response.stream, session, headers, abort.signal)
          : undefined;
    if (!answer) {
      response.stream?.destroy();
      throw new Error(
        type === 'application/json' || type === 'text/event-stream'
          ? 'The server answered without a response to the call'
          : `Unexpected content type: ${response.headers['content-type'] ?? 'none'}`,
      );
    }
    if (isError(answer)) throw McpError.fromError(answer.error.code, answer.error.message, answer.error.data);
    const result = checkCallToolResult(answer.result);
    if (!result.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${result.message}`);
    return result.data;
  } catch (error) {
    throw failure ?? error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    session.closed?.removeEventListener('abort', onClosed);
  }
}

/** Sends, following a 307 or 308 within the server's origin (a redirect elsewhere is the answer). */
async function withinOrigin(url: URL, send: (url: URL) => Promise<PostAnswer>): Promise<PostAnswer> {
  for (let redirects = 0; ; redirects++) {
    const answer = await send(url);
    const location = answer.headers.location;
    if ((answer.status !== 307 && answer.status !== 308) || !location || redirects === MAX_REDIRECTS) return answer;
    const target = new URL(location, url);
    if (target.origin !== url.origin || target.username !== url.username || target.password !== url.password)
      return answer;
    url = target;
  }
}

/**
 * The usual answer: the call's own result alone, with exactly the keys JSONRPCResultResponseSchema
 * (strict) allows. Taken without the union's parse (its result is checked by
 * checkCallToolResult below, as CallToolResultSchema checks it: what the union would check of it).
 */
function isOwnResult(id: string, data: unknown): data is JSONRPCResultResponse {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const message = data as Record<string, unknown>;
  const result = message.result;
  return (
    message.jsonrpc === '2.0' &&
    message.id === id &&
    typeof result === 'object' &&
    result !== null &&
    !Array.isArray(result) &&
    Object.keys(message).length === 3
  );
}

function messagesOf(data: unknown): JSONRPCMessage[] {
  return (Array.isArray(data) ? data : [data]).map((message) => {
    const parsed = JSONRPCMessageSchema.safeParse(message);
    // Not the schema's error: for a union it runs to kilobytes, and it becomes the tool's result.
    if (!parsed.success)
      throw new Error(`The server answered with something not JSON-RPC: ${JSON.stringify(message).slice(0, 200)}`);
    return parsed.data;
  });
}

type Answer = JSONRPCResultResponse | JSONRPCErrorResponse;

/**
 * The call's own answer among the messages (parsed JSON); the others go to the SDK's client. Throws
 * when one is not JSON-RPC (before any is handed on).
 */
function ownAnswer(id: string, data: unknown, session: HttpCallSession): Answer | undefined {
  if (isOwnResult(id, data)) return data;
  let answer: Answer | undefined;
  for (const message of messagesOf(data)) {
    if ((isResult(message) || isError(message)) && message.id === id) answer = message;
    else session.onOther(message);
  }
  return answer;
}

/**
 * Reads the call's stream until its answer. A stream that ends first after an event id is resumed
 * (GET with Last-Event-ID after the server's retry time), as the SDK's transport does: a server
 * may close it on purpose (SEP-1699 polling) and replay what followed on the new one.
 */
async function answerFromStream(
  id: string,
  stream: Readable,
  session: HttpCallSession,
  headers: Record<string, string>,
  signal: AbortSignal,
): Promise<Answer | undefined> {
  let answer: Answer | undefined;
  // An event that is not JSON-RPC is passed over, as the SDK's transport does (a stray notification
  // must not fail the call); its fault is the call's if no answer follows.
  let fault: Error | undefined;
  const onMessage = (data: string) => {
    try {
      return (answer = ownAnswer(id, JSON.parse(data), session)) !== undefined;
    } catch (error) {
      fault ??= error as Error;
      return false;
    }
  };
  let { lastEventId, retryMs } = await readSse(stream, onMessage);
  for (let resumes = 0; !answer && lastEventId && resumes < MAX_RESUMES; resumes++) {
    await delay(retryMs ?? DEFAULT_RETRY_MS, undefined, { signal });
    const { 'content-type': _json, ...common } = headers;
    const resumeHeaders = { ...common, accept: 'text/event-stream', 'last-event-id': lastEventId };
    const resumed = await withinOrigin(session.url, (url) => get(url, resumeHeaders, signal));
    if (resumed.status < 200 || resumed.status >= 300 || mediaType(resumed.headers) !== 'text/event-stream') {
      resumed.stream?.destroy();
      throw new Error(
        `Resuming the call's stream failed (HTTP ${resumed.status}): ${(resumed.text ?? '').slice(0, 500)}`,
      );
    }
    const read = await readSse(resumed.stream!, onMessage);
    lastEventId = read.lastEventId ?? lastEventId;
    retryMs = read.retryMs ?? retryMs;
  }
  if (!answer && fault) throw fault;
  return answer;
}
