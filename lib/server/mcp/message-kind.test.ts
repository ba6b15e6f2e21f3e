// The keys of an accepted message name its kind exactly as the SDK's zod guards do.
import {
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { isError, isNotification, isRequest, isResult } from './message-kind';

const candidates: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {} } },
  { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
  { jsonrpc: '2.0', id: 0, method: 'ping', params: { _meta: { progressToken: 1 } } },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 'x', result: { content: [], _meta: {} } },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'no' } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'parse' } },
  // Refused by the union (each of its schemas is strict): never classified.
  { jsonrpc: '2.0', id: 1, method: 'tools/list', result: {} },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'both' } },
  { jsonrpc: '2.0', method: 'x', error: { code: 1, message: 'm' } },
  { jsonrpc: '1.0', id: 1, method: 'x' },
  { jsonrpc: '2.0', id: 1 },
  { jsonrpc: '2.0', id: null, method: 'x' },
];

describe('message kinds by key', () => {
  it.each(candidates.map((c) => [JSON.stringify(c), c]))('%s is classified as the SDK classifies it', (_name, item) => {
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return;
    const message = parsed.data;
    expect([isRequest(message), isNotification(message), isResult(message), isError(message)]).toEqual([
      isJSONRPCRequest(item),
      isJSONRPCNotification(item),
      isJSONRPCResultResponse(item),
      isJSONRPCErrorResponse(item),
    ]);
  });

  it('every accepted candidate has exactly one kind', () => {
    const accepted = candidates.flatMap((c) => {
      const parsed = JSONRPCMessageSchema.safeParse(c);
      return parsed.success ? [parsed.data] : [];
    });
    expect(accepted.length).toBe(9);
    for (const m of accepted)
      expect([isRequest(m), isNotification(m), isResult(m), isError(m)].filter(Boolean)).toHaveLength(1);
  });
});
