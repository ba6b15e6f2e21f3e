// The kind of a JSON-RPC message that JSONRPCMessageSchema has already accepted, told by its keys.
// The SDK's guards (isJSONRPCRequest and the others) run a zod schema each: five of them on every
// message an MCP client sends cost about 0.1 ms. Each of the union's four schemas is strict, so an
// accepted message has exactly one of these shapes and its keys name it.
import type {
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
} from '@modelcontextprotocol/sdk/types.js';

export const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest => 'method' in message && 'id' in message;

export const isNotification = (message: JSONRPCMessage): message is JSONRPCNotification =>
  'method' in message && !('id' in message);

export const isResult = (message: JSONRPCMessage): message is JSONRPCResultResponse => 'result' in message;

export const isError = (message: JSONRPCMessage): message is JSONRPCErrorResponse => 'error' in message;
