// The chat's view of the server's run events (GET /api/runs/:id/events, POST /api/chat): the
// fields the UI reads, typed once. Server types are imported as types only (nothing server-side
// reaches the bundle).
import type { Decision, Mode, Risk, Rule } from '@/lib/policy';
import type { RelayRequest } from '@/lib/relay';

export type { Decision, Mode, Risk, Rule, RelayRequest };

export type RelayStatus = 'approved' | 'denied' | 'expired' | 'cancelled';

interface Origin {
  /** Set by the stream reader: the run the event belongs to (text events do not carry it). */
  runId: string;
  seq: number;
  agentId?: string;
  parents?: string[];
}

export type RunEvent =
  | (Origin & { type: 'text'; delta: string })
  | (Origin & { type: 'tool_call'; toolCallId: string; tool: string; params: unknown; decision?: Decision })
  | (Origin & { type: 'relay'; relay: RelayRequest })
  | (Origin & { type: 'relay_resolved'; relayId: string; toolCallId: string; status: RelayStatus; reason?: string; decidedBy: string; always?: boolean })
  | (Origin & { type: 'tool_result'; toolCallId: string; tool: string; output: string; isError: boolean; denied: boolean })
  | (Origin & { type: 'agent_start'; profile: string; prompt: string })
  | (Origin & { type: 'agent_end'; profile: string; output: string })
  | (Origin & { type: 'mode_changed'; mode: Mode })
  | (Origin & { type: 'error'; message: string })
  | (Origin & { type: 'resumed' })
  | (Origin & { type: 'done'; finishReason: 'stop' | 'max_steps' | 'cancelled' | 'error'; text: string });

export type RunEventType = RunEvent['type'];

const KNOWN: ReadonlySet<string> = new Set<RunEventType>(['text', 'tool_call', 'relay', 'relay_resolved', 'tool_result', 'agent_start', 'agent_end', 'mode_changed', 'error', 'resumed', 'done']);

/** A parsed SSE event as a RunEvent, or undefined for types the UI does not know (kept forward-compatible). */
export function toRunEvent(runId: string, seq: number, type: string, data: Record<string, unknown>): RunEvent | undefined {
  if (!KNOWN.has(type)) return undefined;
  return { ...data, type, runId, seq } as RunEvent;
}

export const MODE_LABELS: Record<Mode, string> = {
  default: 'Safe mode',
  acceptEdits: 'Accept edits',
  plan: 'Plan',
  dontAsk: "Don't ask",
  bypassPermissions: 'Auto-approve',
};

export const MODES = Object.keys(MODE_LABELS) as Mode[];

export function modeLabel(mode: string): string {
  return MODE_LABELS[mode as Mode] ?? mode;
}

/** `main › reviewer`: the agent and the chain above it, outermost first. */
export function agentChain(agentId: string | undefined, parents: readonly string[] | undefined): string {
  return [...(parents ?? []), agentId ?? 'main'].join(' › ');
}
