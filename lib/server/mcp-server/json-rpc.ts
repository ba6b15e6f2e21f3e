// A JSON-RPC error as an HTTP response: what a malformed request gets instead of a 500.
export function jsonRpcError(
  status: number,
  code: number,
  message: string,
  id: string | number | null = null,
  headers: Record<string, string> = {},
): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id }, { status, headers });
}
