// POST /api/mcp for an authenticated token user. Sessions are signed ids (session-id.ts), so any
// instance serves any request of a session; the answers to our own elicitation requests are taken
// here and decide their relay wherever it waits. A lone tools/list or tools/call is answered
// directly (direct.ts); everything else by the SDK's transport and server (sdk-serve.ts).
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  type InitializeRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { AuthUser } from '../../auth';
import { jsonResponse, knownBody } from '../http/known-body';
import type { RouteRequest } from '../http/route-request';
import type { McpEndpointDeps } from './endpoint-deps';
import { answerOf, relayOfElicitation } from './elicitation';
import { answerDirectly, directRequest } from './direct';
import { decodeSessionId, encodeSessionId, newSessionId, type McpSessionState } from './session-id';
import { idTooLong, jsonRpcError, MAX_REQUEST_ID_LENGTH } from './json-rpc';
import { cancelLocal } from './cancel-registry';
import { isError, isNotification, isRequest, isResult } from '../mcp/message-kind';
import { serveWithSdk } from './sdk-serve';
import { callTool, listTools } from './tool-calls';
import { cutText } from '../../db/storable-json';
import { RESERVED_AGENT_NAMES } from '../../contract';

export type { McpEndpointDeps } from './endpoint-deps';

const SESSION_HEADER = 'mcp-session-id';

/** `body` is the parsed JSON of the request (the route reads it under the size limit). */
export async function handleMcpPost(
  request: RouteRequest,
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
    if ('id' in parsed.data && idTooLong(parsed.data.id))
      return jsonRpcError(400, -32600, `Invalid Request: an id longer than ${MAX_REQUEST_ID_LENGTH} characters`);
    messages.push(parsed.data);
  }

  const init = messages.find((m) => isRequest(m) && m.method === 'initialize' && isInitializeRequest(m)) as
    (JSONRPCRequest & InitializeRequest) | undefined;
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
      client: mcpAgentName(info.name),
      title: cutText(info.title || info.name || 'MCP client', 200),
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
    if (isResult(message) || isError(message)) {
      const relayId = relayOfElicitation(deps.sessionKey, session.sid, message.id);
      const answer = relayId && isResult(message) ? answerOf(message.result) : undefined;
      if (relayId && answer) await deps.answerRelay(user, relayId, answer);
      continue;
    }
    if (isNotification(message) && message.method === 'notifications/cancelled') {
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
  // A known JSON answer (known-body.ts) may have no body of its own: it is made again, not wrapped.
  const known = knownBody(response);
  if (known !== undefined) return jsonResponse(JSON.parse(known), { status: response.status, headers }, request);
  return new Response(response.body, { status: response.status, headers });
}

/** The direct answer for one tools/list or tools/call (direct.ts), else the SDK (sdk-serve.ts). */
function serve(
  request: RouteRequest,
  messages: JSONRPCMessage[],
  session: McpSessionState,
  deps: McpEndpointDeps,
): Promise<Response> {
  const direct = directRequest(request.headers, messages);
  if (!direct) return serveWithSdk(request, messages, session, deps);
  if (direct.method === 'tools/list')
    return answerDirectly(direct.id, request.signal, () => listTools(deps, session), { request });
  const authorization = request.headers.get('authorization');
  return answerDirectly(
    direct.id,
    request.signal,
    (channel) => callTool(deps, session, direct.params, direct.id, authorization, channel),
    { validateCallResult: true, request },
  );
}

function idOf(item: unknown): string | number | null {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/**
 * The agent name rules see for an MCP client: its own `clientInfo.name`, except a name another
 * adapter owns (`main`, `claude-code`, ...), which becomes `mcp:<name>`, so a client cannot take
 * the rules written for Gatehouse's own agent or a CLI (as /api/hooks/decide refuses them).
 */
export function mcpAgentName(name: string | undefined): string {
  const agent = cutText(name || 'mcp-client', 100);
  return (RESERVED_AGENT_NAMES as readonly string[]).includes(agent) ? `mcp:${agent}` : agent;
}
