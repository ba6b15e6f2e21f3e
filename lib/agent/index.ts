// Public surface of the agent runtime: plain TypeScript, usable from a Node script.
export { createAgent, type Agent, type AgentOptions, type AgentRun, type AgentTool, type InvokeOptions } from './agent';
export type { AgentEvent, AgentEventType } from './events';
export type { AgentProfile } from './task';
export { ToolSelectionError, withPermissions, type RunTool } from './run-options';
export {
  DEFAULT_PROMPT_TEMPLATE,
  renderPrompt,
  type ApprovalHandler,
  type InterruptOn,
  type ToolApproval,
} from './approval';
export { MemoryGrantStore, type GrantStore } from './session';
export { EditRefusedError, type EditCheck, type EditIssue } from './loop/edit';
export type { CallResult, ExecutionLog, PendingRelays, ResumePoint } from './loop/context';
export { checkpointedResults } from './loop/results';
export { suggestAlwaysAllow } from './loop/suggest';
export type { ModelToolCall } from './loop/step';
export { notifyObserver, type DecisionObservation, type DecisionObserver } from './loop/observe';
export * from './tools';
export * from './models';
