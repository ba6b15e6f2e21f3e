// The result of a call Gatehouse ran for an outside caller (an MCP client's call of an upstream
// tool), as its run records it: the run's `tool_result` event holds it whole, and the claim it
// finishes (`tool_executions.result`, in the same statement) keeps all but the output. Nothing reads
// an outside call's output from its claim (only agent runs are resumed from their claims), so the
// output is written, journaled and stored once, however large it is (docs/decisions/0043).
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

/** What the finished claim keeps of the result: the output is in the `tool_result` event stored with it. */
export function claimResultOf({ tool, agent, isError }: OutsideCallResult): Omit<OutsideCallResult, 'output'> {
  return { tool, agent, isError };
}
