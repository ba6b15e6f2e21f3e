// What /api/mcp does for tools/list and tools/call, whoever carries the messages: the SDK's
// per-request server (sdk-serve.ts) or the direct answer (direct.ts). The token's choice of tools is
// read on every listing and call (a change applies at once); a tool it does not expose is unknown
// to its clients: not listed, and refused as unknown if called.
import type { CallToolRequest, CallToolResult, JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { trackCancel } from './cancel-registry';
import type { McpEndpointDeps } from './endpoint-deps';
import { gatedCall } from './gated-call';
import { LOOPBACK_META } from './loopback';
import type { McpSessionState } from './session-id';
import type { McpExposedTool } from './tools';
import { exposedBy } from './token-settings';

/** How a call talks back on its request's response. */
export interface CallChannel {
  /** False once the client's response is gone: a result could not be delivered. */
  live(): boolean;
  /** Sends a message on this request's response (elicitation, progress, cancellation). */
  send(message: JSONRPCMessage): Promise<void>;
  /** Told when the call waits for a human (its relay is stored). */
  waiting?(): void;
}

async function visibleTools(deps: McpEndpointDeps, session: McpSessionState): Promise<McpExposedTool[]> {
  const exposed = exposedBy(await deps.exposedTools(session.tokenId));
  return (await deps.tools()).filter((tool) => exposed(tool.name));
}

export async function listTools(deps: McpEndpointDeps, session: McpSessionState) {
  return {
    tools: (await visibleTools(deps, session)).map(({ name, description, inputSchema, annotations }) => ({
      name,
      description,
      inputSchema,
      ...(annotations ? { annotations } : {}),
    })),
  };
}

/**
 * The tool of this name that /api/mcp serves to the token's clients (listed to them, callable by
 * them), or undefined: the one tool looked up, then the token's choice for its name only (no glob
 * over every tool). The Claude Code hook asks it too, to let through only what /api/mcp gates itself.
 */
export async function servedTool(
  deps: Pick<McpEndpointDeps, 'tools' | 'exposedTools'>,
  tokenId: string,
  name: string,
): Promise<McpExposedTool | undefined> {
  const tool = (await deps.tools()).find((t) => t.name === name);
  return tool && exposedBy(await deps.exposedTools(tokenId))(tool.name) ? tool : undefined;
}

export async function callTool(
  deps: McpEndpointDeps,
  session: McpSessionState,
  call: CallToolRequest['params'],
  requestId: RequestId,
  authorization: string | null,
  channel: CallChannel,
): Promise<CallToolResult> {
  const tool = await servedTool(deps, session.tokenId, call.name);
  if (!tool) return { content: [{ type: 'text', text: `Unknown tool: ${call.name}` }], isError: true };
  const { signal, release } = trackCancel(session.sid, requestId);
  const progressToken = call._meta?.progressToken;
  return gatedCall(deps, {
    tool,
    args: call.arguments ?? {},
    session,
    requestId,
    ...(progressToken !== undefined ? { progressToken } : {}),
    loopbackProof: call._meta?.[LOOPBACK_META],
    authorization,
    cancelled: signal,
    ...channel,
  }).finally(release);
}
