// `notifications/cancelled` arrives on a request of its own. When it reaches the instance where the
// call waits, the call's signal aborts (the gate then withdraws the relay). On another instance it
// finds nothing here: the relay stays pending until its deadline or a decision (docs/decisions/0023).
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

const waiting = new Map<string, AbortController>();
const keyOf = (sid: string, requestId: RequestId) => `${sid}\n${typeof requestId}:${String(requestId)}`;

/** A signal aborted by an explicit cancel of this request; release it when done. */
export function trackCancel(sid: string, requestId: RequestId) {
  const controller = new AbortController();
  const key = keyOf(sid, requestId);
  waiting.set(key, controller);
  return {
    signal: controller.signal,
    release: () => {
      if (waiting.get(key) === controller) waiting.delete(key);
    },
  };
}

export function cancelLocal(sid: string, requestId: RequestId): boolean {
  const controller = waiting.get(keyOf(sid, requestId));
  controller?.abort(new Error('Cancelled by the MCP client'));
  return controller !== undefined;
}
