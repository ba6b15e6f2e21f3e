// tools/list and tools/call answered without the SDK's per-request Server and transport (about half
// a millisecond per request): one request alone, with the headers the transport would accept, and
// params its schemas accept; anything else goes to the SDK (sdk-serve.ts). A call decided and run at
// once is answered as JSON; once it must wait (its relay stored, a message to send, or still going
// after STREAM_AFTER_MS) the answer becomes an SSE stream, as the SDK writes it, so the client sees
// the elicitation and progress messages and no header timeout runs out while a human decides.
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolRequest,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { CallChannel } from './tool-calls';
import { checkCallToolResult } from '../mcp/call-tool-result';
import { isRequest } from '../mcp/message-kind';
import { jsonResponse } from '../http/known-body';
import type { RouteRequest } from '../http/route-request';

/** A call still running after this long gets a stream (headers out now, keep-alives, progress). */
export const STREAM_AFTER_MS = 1_000;
/** As the SDK's transport: a comment every 15 s keeps proxies from closing a waiting stream. */
export const KEEP_ALIVE_MS = 15_000;

type DirectRequest =
  { method: 'tools/list'; id: RequestId } | { method: 'tools/call'; id: RequestId; params: CallToolRequest['params'] };

/** The one message the direct answer takes, or undefined: the SDK answers (and refuses what it refuses). */
export function directRequest(
  headers: Pick<Headers, 'get'>,
  messages: readonly JSONRPCMessage[],
): DirectRequest | undefined {
  const message = messages.length === 1 ? messages[0] : undefined;
  if (!message || !isRequest(message) || !acceptedHeaders(headers)) return undefined;
  if (message.method === 'tools/list')
    return ListToolsRequestSchema.safeParse(message).success ? { method: 'tools/list', id: message.id } : undefined;
  if (message.method !== 'tools/call') return undefined;
  const parsed = CallToolRequestSchema.safeParse(message);
  // A task-augmented call is the SDK's to refuse or serve.
  if (!parsed.success || parsed.data.params.task !== undefined) return undefined;
  return { method: 'tools/call', id: message.id, params: parsed.data.params };
}

/** What the SDK's transport checks before serving a request (406, 415, 400 otherwise, from it). */
export function acceptedHeaders(headers: Pick<Headers, 'get'>): boolean {
  const accept = headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
  const type = headers.get('content-type');
  if (type !== 'application/json' && type?.split(';')[0]!.trim().toLowerCase() !== 'application/json') return false;
  const version = headers.get('mcp-protocol-version');
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

/**
 * Runs `work` and answers with its result: JSON when it ends before anything else happened, else an
 * SSE stream opened at the first message, the relay, or STREAM_AFTER_MS. `signal` aborts when the
 * client goes away (before the stream; after it, the stream's cancel says so).
 */
export function answerDirectly(
  id: RequestId,
  signal: AbortSignal,
  work: (channel: CallChannel) => Promise<unknown>,
  options: {
    validateCallResult?: boolean;
    streamAfterMs?: number;
    /** The request being answered: a JSON answer to the fast path's is made without a body (known-body.ts). */
    request?: RouteRequest;
  } = {},
): Promise<Response> {
  return new Promise<Response>((resolve) => {
    const encoder = new TextEncoder();
    let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
    let cancelled = false;
    let done = false;
    let keepAlive: ReturnType<typeof setInterval> | undefined;
    const write = (chunk: string) => {
      try {
        stream!.enqueue(encoder.encode(chunk));
      } catch {
        cancelled = true; // closed under us: nobody reads any more
      }
    };
    const open = () => {
      if (stream || done) return;
      clearTimeout(timer);
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => void (stream = controller),
        cancel: () => {
          cancelled = true;
          clearInterval(keepAlive);
        },
      });
      keepAlive = setInterval(() => write(': keepalive\n\n'), KEEP_ALIVE_MS);
      keepAlive.unref?.();
      resolve(new Response(body, { status: 200, headers: SSE_HEADERS }));
    };
    const timer = setTimeout(open, options.streamAfterMs ?? STREAM_AFTER_MS);
    timer.unref?.();
    const channel: CallChannel = {
      live: () => !cancelled && !signal.aborted,
      send: async (message) => {
        open();
        if (!done && !cancelled) write(sse(message));
      },
      waiting: open,
    };
    const settle = (message: JSONRPCMessage) => {
      done = true;
      clearTimeout(timer);
      if (!stream) return resolve(jsonResponse(message, {}, options.request));
      clearInterval(keepAlive);
      if (cancelled) return;
      write(sse(message));
      try {
        stream.close();
      } catch {
        // cancelled meanwhile
      }
    };
    work(channel).then(
      (result) =>
        settle(
          options.validateCallResult
            ? callResultMessage(id, result)
            : { jsonrpc: '2.0', id, result: result as Record<string, unknown> },
        ),
      (error) => settle(failureMessage(id, error)),
    );
  });
}

/** A tools/call's answer: as the SDK's server, its result is checked against its schema before it is sent. */
export function callResultMessage(id: RequestId, result: unknown): JSONRPCMessage {
  const checked = checkCallToolResult(result);
  return checked.success
    ? { jsonrpc: '2.0', id, result: checked.data }
    : errorMessage(id, ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.message}`);
}

/** The answer to a request whose work failed: the error's own JSON-RPC code and data, else an internal error. */
export function failureMessage(id: RequestId, error: unknown): JSONRPCMessage {
  const e = error as { code?: unknown; message?: string; data?: unknown } | undefined;
  return errorMessage(
    id,
    Number.isSafeInteger(e?.code) ? Number(e!.code) : ErrorCode.InternalError,
    e?.message ?? 'Internal error',
    e?.data,
  );
}

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
};

export const sse = (message: JSONRPCMessage) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

function errorMessage(id: RequestId, code: number, message: string, data?: unknown): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data !== undefined ? { data } : {}) } };
}
