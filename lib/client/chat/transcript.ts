// The transcript model and its pure reducer: run events in, what the chat shows out. Replays are
// harmless (an event at or below a run's last applied sequence is ignored), so a reconnect that
// re-reads from the start, or from Last-Event-ID, never duplicates anything.
import type { LoggedEvent, RelayApproval, RelayOutcomeStatus } from '@/lib/contract';
import type { Decision } from '@/lib/policy/types';

/** One status per card: a call that ran ends `done` or `error`; one that never ran `denied` or `expired`. */
export type ToolStatus = 'waiting for approval' | 'running' | 'done' | 'error' | 'denied' | 'expired';
/** Where the chat's current run stands, as the status bar shows it (not the stored run status). */
export type TranscriptStatus = 'idle' | 'starting' | 'live' | 'done' | 'cancelled' | 'failed';

interface Who {
  agentId: string;
  parents: string[];
}

export type TranscriptItem =
  /** `unsent`: its run could not start, so it is not part of the conversation sent next time. */
  | { kind: 'user'; id: string; text: string; unsent?: boolean }
  | (Who & { kind: 'assistant'; id: string; runId: string; text: string })
  | (Who & {
      kind: 'tool';
      id: string;
      runId: string;
      toolCallId: string;
      tool: string;
      params: unknown;
      status: ToolStatus;
      decision?: Decision;
      relayId?: string;
      resolution?: Resolution;
      /** A relay that needs several approvers: who approved so far (its `relay_progress`). */
      progress?: { approvals: RelayApproval[]; needed: number };
      /** Edit, then approve: the call as an approver edited it (`params` stays the agent's original). */
      editedParams?: Record<string, unknown>;
      output?: string;
      isError?: boolean;
      reason?: string;
    })
  | (Who & { kind: 'agent'; id: string; runId: string; profile: string; prompt: string; output?: string })
  | { kind: 'error'; id: string; message: string };

export type ToolItem = Extract<TranscriptItem, { kind: 'tool' }>;

/** How a human (or the deadline) settled the call's approval: its `relay_resolved`. */
export interface Resolution {
  status: RelayOutcomeStatus;
  decidedBy: string;
  reason?: string;
  always?: boolean;
  /** With `always`: whom the grant covers (absent in older stored events). */
  scope?: 'session' | 'global';
}

export interface Transcript {
  sessionId?: string;
  runId?: string;
  runStatus: TranscriptStatus;
  items: TranscriptItem[];
  /** Highest sequence applied, per run. */
  lastSeq: Record<string, number>;
}

/** A finished turn of the conversation, as GET /api/sessions/:id gives it. */
export interface EarlierTurn {
  prompt: string;
  events: LoggedEvent[];
}

export type TranscriptAction =
  | { type: 'reset' }
  /** A run opened from its URL: the session's turns before it (prompts and events) and its own prompt; its events follow. */
  | {
      type: 'load';
      runId: string;
      sessionId: string;
      earlier: EarlierTurn[];
      prompt: string;
      runStatus: TranscriptStatus;
    }
  | { type: 'send'; text: string }
  | { type: 'started'; runId: string; sessionId: string }
  | { type: 'event'; event: LoggedEvent }
  | { type: 'failed'; message: string };

export const emptyTranscript: Transcript = { runStatus: 'idle', items: [], lastSeq: {} };

export function transcriptReducer(state: Transcript, action: TranscriptAction): Transcript {
  switch (action.type) {
    case 'reset':
      return emptyTranscript;
    case 'load': {
      let loaded: Transcript = {
        runId: action.runId,
        sessionId: action.sessionId,
        runStatus: action.runStatus,
        items: [],
        lastSeq: {},
      };
      for (const turn of action.earlier) {
        loaded = addPrompt(loaded, turn.prompt);
        for (const event of turn.events) loaded = applyEvent(loaded, event);
      }
      return addPrompt(loaded, action.prompt);
    }
    case 'send':
      return {
        ...state,
        runStatus: 'starting',
        items: [...state.items, { kind: 'user', id: `u${state.items.length}`, text: action.text }],
      };
    case 'started':
      return { ...state, runId: action.runId, sessionId: action.sessionId, runStatus: 'live' };
    case 'failed': {
      const starting = state.runStatus === 'starting';
      const items = starting ? markLastUserUnsent(state.items) : state.items;
      return {
        ...state,
        runStatus: starting ? 'idle' : state.runStatus,
        items: [...items, { kind: 'error', id: `e${items.length}`, message: action.message }],
      };
    }
    case 'event':
      return applyEvent(state, action.event);
  }
}

/** The conversation so far as chat messages, for a follow-up in the same session. */
export function toMessages(state: Transcript): Array<{ role: 'user' | 'assistant'; content: string }> {
  return state.items.flatMap((item): Array<{ role: 'user' | 'assistant'; content: string }> => {
    if (item.kind === 'user') return item.unsent ? [] : [{ role: 'user', content: item.text }];
    if (item.kind === 'assistant' && item.parents.length === 0 && item.text)
      return [{ role: 'assistant', content: item.text }];
    return [];
  });
}

function addPrompt(state: Transcript, text: string): Transcript {
  return text ? { ...state, items: [...state.items, { kind: 'user', id: `u${state.items.length}`, text }] } : state;
}

function markLastUserUnsent(items: TranscriptItem[]): TranscriptItem[] {
  const index = items.findLastIndex((item) => item.kind === 'user');
  return items.map((item, i) => (i === index && item.kind === 'user' ? { ...item, unsent: true } : item));
}

function applyEvent(state: Transcript, event: LoggedEvent): Transcript {
  const last = state.lastSeq[event.runId] ?? 0;
  if (event.seq <= last) return state;
  const next = { ...state, lastSeq: { ...state.lastSeq, [event.runId]: event.seq } };
  const who: Who = { agentId: event.agentId ?? 'main', parents: event.parents ?? [] };
  const key = (toolCallId: string) => `${event.runId}:${toolCallId}`;
  switch (event.type) {
    case 'text':
      return appendText(next, event.runId, who, event.content);
    case 'tool_call': {
      const status: ToolStatus =
        event.decision?.action === 'ask'
          ? 'waiting for approval'
          : event.decision?.action === 'deny'
            ? 'denied'
            : 'running';
      const reason = event.decision?.action === 'deny' ? event.decision.explanation : undefined;
      return upsertTool(next, key(event.toolCallId), () => ({
        kind: 'tool',
        id: key(event.toolCallId),
        runId: event.runId,
        toolCallId: event.toolCallId,
        tool: event.name,
        params: event.params,
        ...who,
        status,
        decision: event.decision,
        reason,
      }));
    }
    case 'relay': {
      const r = event;
      return upsertTool(next, key(r.toolCallId), (item) => ({
        ...(item ?? {
          kind: 'tool',
          id: key(r.toolCallId),
          runId: event.runId,
          toolCallId: r.toolCallId,
          tool: r.tool,
          params: r.params,
          agentId: r.agentId,
          parents: r.parents,
        }),
        status: 'waiting for approval',
        relayId: r.id,
        decision: r.decision,
      }));
    }
    case 'relay_progress':
      return updateTool(next, key(event.toolCallId), (item) => ({
        ...item,
        progress: { approvals: event.approvals, needed: event.needed },
        ...(event.params ? { editedParams: event.params } : {}),
      }));
    case 'relay_resolved':
      return updateTool(next, key(event.toolCallId), (item) => ({
        ...item,
        ...(event.params ? { editedParams: event.params } : {}),
        ...(event.approvals ? { progress: { approvals: event.approvals, needed: event.approvals.length } } : {}),
        resolution: {
          status: event.status,
          decidedBy: event.decidedBy,
          ...(event.reason !== undefined ? { reason: event.reason } : {}),
          ...(event.always ? { always: true } : {}),
          ...(event.scope ? { scope: event.scope } : {}),
        },
        status: event.status === 'approved' ? 'running' : event.status === 'expired' ? 'expired' : 'denied',
        reason:
          event.status === 'approved'
            ? undefined
            : (event.reason ?? (event.status === 'cancelled' ? 'The run was stopped' : undefined)),
      }));
    case 'tool_result':
      return upsertTool(next, key(event.toolCallId), (item) => {
        const base = item ?? {
          kind: 'tool' as const,
          id: key(event.toolCallId),
          runId: event.runId,
          toolCallId: event.toolCallId,
          tool: event.name,
          params: undefined,
          ...who,
          status: 'running' as ToolStatus,
        };
        if (event.denied)
          return {
            ...base,
            status: base.status === 'expired' ? 'expired' : 'denied',
            reason: base.reason ?? denialReason(event.output),
            output: event.output,
            isError: true,
          };
        return { ...base, status: event.isError ? 'error' : 'done', output: event.output, isError: event.isError };
      });
    case 'agent_start':
      return {
        ...next,
        items: [
          ...next.items,
          {
            kind: 'agent',
            id: `${event.runId}:agent:${event.seq}`,
            runId: event.runId,
            ...who,
            profile: event.profile,
            prompt: event.prompt,
          },
        ],
      };
    case 'agent_end': {
      const index = findLastIndex(
        next.items,
        (i) => i.kind === 'agent' && i.runId === event.runId && i.profile === event.profile && i.output === undefined,
      );
      if (index < 0) return next;
      return {
        ...next,
        items: next.items.map((item, i) =>
          i === index && item.kind === 'agent' ? { ...item, output: event.output } : item,
        ),
      };
    }
    case 'error':
      return {
        ...next,
        items: [...next.items, { kind: 'error', id: `${event.runId}:error:${event.seq}`, message: event.message }],
      };
    case 'done':
      if (who.parents.length > 0 || event.runId !== state.runId) return next;
      return {
        ...next,
        runStatus:
          event.finishReason === 'cancelled' ? 'cancelled' : event.finishReason === 'error' ? 'failed' : 'done',
      };
    case 'mode_changed':
    case 'resumed':
      return next;
  }
}

function appendText(state: Transcript, runId: string, who: Who, content: string): Transcript {
  const lastItem = state.items.at(-1);
  if (lastItem?.kind === 'assistant' && lastItem.runId === runId && lastItem.agentId === who.agentId) {
    return { ...state, items: [...state.items.slice(0, -1), { ...lastItem, text: lastItem.text + content }] };
  }
  return {
    ...state,
    items: [
      ...state.items,
      { kind: 'assistant', id: `${runId}:text:${state.lastSeq[runId]}`, runId, ...who, text: content },
    ],
  };
}

function upsertTool(state: Transcript, id: string, make: (item: ToolItem | undefined) => ToolItem): Transcript {
  const index = state.items.findIndex((i) => i.kind === 'tool' && i.id === id);
  if (index < 0) return { ...state, items: [...state.items, make(undefined)] };
  return { ...state, items: state.items.map((item, i) => (i === index && item.kind === 'tool' ? make(item) : item)) };
}

function updateTool(state: Transcript, id: string, change: (item: ToolItem) => ToolItem): Transcript {
  if (!state.items.some((i) => i.kind === 'tool' && i.id === id)) return state;
  return upsertTool(state, id, (item) => change(item!));
}

/** `Tool execution denied: <reason>. Do not retry the same call.` → `<reason>`. */
export function denialReason(output: string): string {
  const match = /^Tool execution denied: ([\s\S]*?)\.? Do not retry the same call\.?$/.exec(output.trim());
  return match?.[1] ?? output;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
