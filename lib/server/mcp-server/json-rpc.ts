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

/**
 * The longest request id taken, as for the hooks' `tool_use_id`: a call's id names its execution
 * claim, which the database indexes (a btree entry holds at most 2,704 bytes), so a longer one
 * could make the call's record unstorable after the call ran. Refused as an invalid request.
 */
export const MAX_REQUEST_ID_LENGTH = 200;

export const idTooLong = (id: unknown): boolean => typeof id === 'string' && id.length > MAX_REQUEST_ID_LENGTH;
