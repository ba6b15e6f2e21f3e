// The events an agent run emits, in order, to whoever iterates `invoke()`: the CLI example, the
// server's SSE stream, tests. A `relay` event can be answered right there with `respond`. The
// shapes are the contract's (lib/contract/events.ts), in the seed design's names.
export type { AgentEvent, AgentEventType } from '../contract';
