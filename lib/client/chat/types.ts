// The chat's reading of the server's run events (GET /api/runs/:id/events, POST /api/chat): the
// shapes are the contract's (lib/contract), in the seed design's names; this module only turns a
// parsed SSE block into one, and names an agent chain for display.
import { isRunEventType, type LoggedEvent } from '@/lib/contract';

/**
 * A parsed SSE event as a logged run event, or undefined for types the UI does not know (kept
 * forward-compatible). The server sends every field; `runId` and `seq` are the stream's own.
 */
export function toLoggedEvent(
  runId: string,
  seq: number,
  type: string,
  data: Record<string, unknown>,
): LoggedEvent | undefined {
  if (!isRunEventType(type)) return undefined;
  return { agentId: 'main', parents: [], ...data, type, runId, seq } as LoggedEvent;
}

/** `main › reviewer`: the agent and the chain above it, outermost first. */
export function agentChain(agentId: string | undefined, parents: readonly string[] | undefined): string {
  return [...(parents ?? []), agentId ?? 'main'].join(' › ');
}
