// POST /api/mcp for an authenticated token user: the MCP Streamable HTTP transport (the SDK's
// web-standard one, one per request) in front of a per-request SDK Server. Sessions are signed
// ids (session-id.ts), so any instance serves any request of a session; the answers to our own
// elicitation requests are taken here, before the SDK, and decide their relay wherever it waits.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
  ListToolsRequestSchema,
  type InitializeRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthUser } from '../../auth';
import { answerOf, relayOfElicitation } from './elicitation';
import { gatedCall, type GatedCallDeps } from './gated-call';
import { LOOPBACK_META } from './loopback';
import { decodeSessionId, encodeSessionId, newSessionId, type McpSessionState } from './session-id';
import type { McpExposedTool } from './tools';
import { jsonRpcError } from './json-rpc';
import { trackCancel, cancelLocal } from './cancel-registry';
import { watchBody } from './watch-body';
import { exposedBy } from './token-settings';

export interface McpEndpointDeps extends GatedCallDeps {
  tools(): Promise<McpExposedTool[]>;
  /** The token's choice of tools for its MCP clients (globs); undefined: every tool. */
  exposedTools(tokenId: string): Promise<string[] | undefined>;
  /** The token's choice for a client without elicitation: decline an ask at once (else wait). */
  declineWithoutElicitation(tokenId: string): Promise<boolean>;
  /** Decides a relay as the user who answered the confirmation (409s, a relay decided already, are swallowed). */
  answerRelay(user: AuthUser, relayId: string, answer: { approved: boolean; reason?: string }): Promise<void>;
  version: string;
}

const SESSION_HEADER = 'mcp-session-id';

/** `body` is the parsed JSON of the request (the route reads it under the size limit). */
export async function handleMcpPost(
  request: Request,
  body: unknown,
  user: AuthUser & { tokenId: string },
  deps: McpEndpointDeps,
): Promise<Response> {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0 || list.length > 100)
    return jsonRpcError(400, -32600, 'Invalid Request: send 1 to 100 messages');
  const messages: JSONRPCMessage[] = [];
  for (const item of list) {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return jsonRpcError(400, -32600, 'Invalid Request: not a JSON-RPC 2.0 message', idOf(item));
    messages.push(parsed.data);
  }

  const init = messages.find(isInitializeRequest) as (JSONRPCRequest & InitializeRequest) | undefined;
  let session: McpSessionState | undefined;
  let sessionHeader: string | undefined;
  if (init) {
    if (messages.length > 1)
      return jsonRpcError(400, -32600, 'Invalid Request: initialize must be sent alone', init.id);
    const info = init.params.clientInfo;
    session = {
      sid: newSessionId(),
      owner: user.id,
      tokenId: user.tokenId,
      client: (info.name || 'mcp-client').slice(0, 100),
      title: (info.title || info.name || 'MCP client').slice(0, 200),
      elicitation: init.params.capabilities.elicitation !== undefined,
      declineWithoutElicitation: await deps.declineWithoutElicitation(user.tokenId),
    };
    sessionHeader = encodeSessionId(deps.sessionKey, session);
  } else {
    const header = request.headers.get(SESSION_HEADER);
    if (!header) return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    session = decodeSessionId(deps.sessionKey, header);
    // Another user's (or another token's) session is as unknown as a forged one.
    if (!session || session.owner !== user.id || session.tokenId !== user.tokenId)
      return jsonRpcError(404, -32001, 'Session not found');
  }

  // Answers to our confirmations and cancellations are ours; everything else goes to the SDK.
  const rest: JSONRPCMessage[] = [];
  for (const message of messages) {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const relayId = relayOfElicitation(deps.sessionKey, session.sid, message.id);
      const answer = relayId && isJSONRPCResultResponse(message) ? answerOf(message.result) : undefined;
      if (relayId && answer) await deps.answerRelay(user, relayId, answer);
      continue;
    }
    if (isJSONRPCNotification(message) && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') cancelLocal(session.sid, requestId);
      continue;
    }
    rest.push(message);
  }
  if (rest.length === 0) return new Response(null, { status: 202 });

  const response = await serve(request, rest, session, deps);
  if (!sessionHeader) return response;
  const headers = new Headers(response.headers);
  headers.set(SESSION_HEADER, sessionHeader);
  return new Response(response.body, { status: response.status, headers });
}

async function serve(
  request: Request,
  messages: JSONRPCMessage[],
  session: McpSessionState,
  deps: McpEndpointDeps,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  const server = new Server({ name: 'gatehouse', version: deps.version }, { capabilities: { tools: {} } });
  let live = true;
  const handling = new Set<Promise<unknown>>();
  // The token's choice of tools, read on every listing and call (a change applies at once). A tool
  // it does not expose is unknown to its clients: not listed, and refused as unknown if called.
  const visibleTools = async () => {
    const exposed = exposedBy(await deps.exposedTools(session.tokenId));
    return (await deps.tools()).filter((tool) => exposed(tool.name));
  };
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (await visibleTools()).map(({ name, description, inputSchema, annotations }) => ({
      name,
      description,
      inputSchema,
      ...(annotations ? { annotations } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    const tool = (await visibleTools()).find((t) => t.name === call.params.name);
    if (!tool) return { content: [{ type: 'text', text: `Unknown tool: ${call.params.name}` }], isError: true };
    const { signal, release } = trackCancel(session.sid, extra.requestId);
    const calling = gatedCall(deps, {
      tool,
      args: call.params.arguments ?? {},
      session,
      requestId: extra.requestId,
      ...(extra._meta?.progressToken !== undefined ? { progressToken: extra._meta.progressToken } : {}),
      loopbackProof: call.params._meta?.[LOOPBACK_META],
      authorization: request.headers.get('authorization'),
      cancelled: signal,
      live: () => live,
      send: (message) => (live ? transport.send(message, { relatedRequestId: extra.requestId }) : Promise.resolve()),
    }).finally(release);
    handling.add(calling);
    return calling.finally(() => handling.delete(calling));
  });
  await server.connect(transport);
  const response = await transport.handleRequest(request, {
    parsedBody: messages.length === 1 ? messages[0] : messages,
  });
  const close = () => void server.close().catch(() => {});
  // The body ends when every response is written. A client that goes away is not cancelling (the
  // protocol says so): its calls keep waiting for their decision, and one approved now finds no
  // live request and does not run (gated-call.ts). The server closes once they are done.
  return watchBody(response, {
    onCancel: () => {
      live = false;
      void Promise.allSettled([...handling]).then(close);
    },
    onEnd: close,
  });
}

function idOf(item: unknown): string | number | null {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
