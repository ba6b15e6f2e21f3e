// The `tool_result` event of a call an MCP client made, as its run records it (the same shape as
// the outside gate's recordResult writes).
import type { RunEvent } from '../../contract';
import type { McpCallRecord } from './gated-call';

export function toolResultEvent(runId: string, toolCallId: string, record: McpCallRecord): RunEvent {
  return {
    type: 'tool_result',
    runId,
    agentId: record.agent,
    parents: [],
    toolCallId,
    name: record.tool,
    output: record.output,
    isError: record.isError,
    denied: false,
  };
}
