// The events an agent run emits, in order, to whoever iterates `invoke()`: the CLI example, the
// server's SSE stream, tests. A `relay` event can be answered right there with `respond`.
import type { Decision } from '../policy';
import type { RelayOutcome, RelayRequest, RelayResponse } from '../relay';

interface Base {
  runId: string;
  /** The agent that emitted it: `main`, or a subagent profile name. */
  agentId: string;
  /** Agents above this one, outermost first (empty for the main agent). */
  parents: string[];
}

export type AgentEvent =
  | (Base & { type: 'text'; delta: string })
  | (Base & { type: 'tool_call'; toolCallId: string; tool: string; params: unknown; decision?: Decision })
  | (Base & { type: 'relay'; relay: RelayRequest; respond(response: RelayResponse): Promise<RelayOutcome> })
  | (Base & { type: 'relay_resolved'; relayId: string; toolCallId: string; status: RelayOutcome['status']; reason?: string; decidedBy: string; always?: boolean })
  | (Base & { type: 'tool_result'; toolCallId: string; tool: string; output: string; isError: boolean; denied: boolean; metadata?: Record<string, unknown> })
  | (Base & { type: 'error'; message: string })
  | (Base & { type: 'agent_start'; profile: string; prompt: string })
  | (Base & { type: 'agent_end'; profile: string; output: string })
  | (Base & { type: 'done'; finishReason: 'stop' | 'max_steps' | 'cancelled' | 'error'; text: string });

export type AgentEventType = AgentEvent['type'];
