// The messages the direct answer (direct.ts) does not take (initialize, ping, batches, anything
// unusual) go through the SDK: its web-standard Streamable HTTP transport, one per request, in
// front of a per-request SDK Server, answering as an SSE stream.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RouteRequest } from '../http/route-request';
import type { McpEndpointDeps } from './endpoint-deps';
import type { McpSessionState } from './session-id';
import { callTool, listTools } from './tool-calls';
import { watchBody } from './watch-body';

export async function serveWithSdk(
  request: RouteRequest,
  messages: JSONRPCMessage[],
  session: McpSessionState,
  deps: McpEndpointDeps,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  const server = new Server({ name: 'gatehouse', version: deps.version }, { capabilities: { tools: {} } });
  let live = true;
  const handling = new Set<Promise<unknown>>();
  server.setRequestHandler(ListToolsRequestSchema, () => listTools(deps, session));
  server.setRequestHandler(CallToolRequestSchema, async (call, extra) => {
    const calling = callTool(deps, session, call.params, extra.requestId, request.headers.get('authorization'), {
      live: () => live,
      send: (message) => (live ? transport.send(message, { relatedRequestId: extra.requestId }) : Promise.resolve()),
    });
    handling.add(calling);
    return calling.finally(() => handling.delete(calling));
  });
  await server.connect(transport);
  const response = await transport.handleRequest(webRequest(request), {
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

// What the SDK's transport reads of a request (the body is parsed already). The fast path's request
// (routes/node-request.ts) builds no Headers, so the transport gets a Request with these.
const READ_BY_SDK = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id', 'authorization'];

function webRequest(request: RouteRequest): Request {
  if (request instanceof Request) return request;
  const headers = new Headers();
  for (const name of READ_BY_SDK) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Request(request.url, { method: request.method, headers, signal: request.signal });
}
