// The stdio bridge's core: every message from the local client (stdio) goes to Gatehouse's
// /api/mcp and every message back goes to the client, unchanged. The HTTP transport keeps the
// session id; it is told the negotiated protocol version so later requests carry its header.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { isJSONRPCRequest, isJSONRPCResultResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';

export async function bridge(local: Transport, remote: StreamableHTTPClientTransport): Promise<void> {
  let initializeId: RequestId | undefined;
  const fail = (id: RequestId, error: Error) =>
    void local
      .send({ jsonrpc: '2.0', id, error: { code: -32603, message: `Gatehouse: ${error.message}` } })
      .catch(() => {});
  local.onmessage = (message) => {
    if (isJSONRPCRequest(message) && message.method === 'initialize') initializeId = message.id;
    remote.send(message).catch((error: Error) => {
      if (isJSONRPCRequest(message)) fail(message.id, error);
      else process.stderr.write(`[gatehouse mcp:stdio] ${error.message}\n`);
    });
  };
  remote.onmessage = (message) => {
    if (isJSONRPCResultResponse(message) && initializeId !== undefined && message.id === initializeId) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === 'string') remote.setProtocolVersion(version);
    }
    void local.send(message).catch(() => {});
  };
  remote.onerror = (error) => process.stderr.write(`[gatehouse mcp:stdio] ${error.message}\n`);
  // Either side closing closes the other, once (each close calls its own onclose again).
  let closed = false;
  const closeBoth = () => {
    if (closed) return;
    closed = true;
    void Promise.allSettled([local.close(), remote.close()]);
  };
  local.onclose = closeBoth;
  remote.onclose = closeBoth;
  await remote.start();
  await local.start();
}
