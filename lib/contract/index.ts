// What crosses a boundary between the library, the server and the browser: events, relays, run
// statuses, modes and their labels, roles, and the response bodies the client reads. Zod schemas
// with their inferred types; the only project import is lib/policy's schemas (never its engine),
// so the browser bundle gets this module, zod and lib/policy/types alone.
export * from './events';
export * from './relay';
export * from './runs';
export * from './modes';
export * from './roles';
export * from './dtos';
export * from './chat';
export * from './sessions';
export { upgradeStoredEvent, type StoredEventRow } from './stored';
export * from './sse';
export * from './shadow';
export * from './hooks';
export * from './claude-code-settings';
export * from './hook-command';
export * from './gemini-cli-settings';
export * from './codex-settings';
export * from './connect-agents';
export * from './mcp-servers';
export * from './approvals';
