// The result of a call Gatehouse ran for an outside caller (an MCP client's call of an upstream
// tool), as its run records it: a `tool_result` event, and the same values as the finished claim's
// result (`tool_executions.result`). One is made from the other, so a deferred record's journal line
// carries the output once (in its event) however large it is.
import type { RunEvent } from '../../contract';

export interface OutsideCallResult {
  tool: string;
  /** The agent's name as its run records it (an MCP client's name). */
  agent: string;
  output: string;
  isError: boolean;
}

/** The run's `tool_result` event for the call. */
export function callResultEvent(runId: string, toolCallId: string, result: OutsideCallResult): RunEvent {
  return {
    type: 'tool_result',
    runId,
    agentId: result.agent,
    parents: [],
    toolCallId,
    name: result.tool,
    output: result.output,
    isError: result.isError,
    denied: false,
  };
}

/** The result a `tool_result` event among `events` records for the call, or undefined when none does. */
export function callResultIn(events: readonly RunEvent[], toolCallId: string): OutsideCallResult | undefined {
  for (const event of events)
    if (event.type === 'tool_result' && event.toolCallId === toolCallId)
      return { tool: event.name, agent: event.agentId, output: event.output, isError: event.isError };
  return undefined;
}
