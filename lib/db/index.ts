// Public surface of the persistence layer: open a store (PGlite or PostgreSQL), bind the query
// modules to it. Nothing here knows about HTTP, Next or the agent loop.
export type { Database, DatabaseHandle, DatabaseKind } from './database';
export { openDatabase, DEFAULT_DATA_DIR, type OpenDatabaseOptions } from './open';
export { MEMORY_DATA_DIR } from './pglite';
export { resolveMigrationsFolder } from './migrate';
export { LOCK_FILE } from './lock';
export { DatabaseLockedError, InvalidCursorError, LeaseLostError, RunNotFoundError } from './errors';
export { createQueries, type Queries } from './queries';
export { CredentialChanges, type ChangeCounter, type CredentialChangeListener } from './credential-changes';
export { DecisionChanges } from './decision-changes';
export type { Page } from './pagination';
export { runQueries, type RunQueries, type CreateRunInput, type ListRunsInput, type UpdateRunInput } from './runs';
export {
  conversationQueries,
  type ConversationQueries,
  type ConversationRow,
  type ListConversationsInput,
} from './conversations';
export { messageQueries, type MessageQueries, type NewMessage } from './messages';
export {
  eventQueries,
  type EventQueries,
  type NewEvent,
  type ListEventsInput,
  type AppendEffects,
  type AppendEventsInput,
} from './events';
export {
  relayQueries,
  toRelayRecord,
  toRelayOutcome,
  APPROVAL_TIMEOUT_REASON,
  type RelayQueries,
  type ResolveRelayInput,
  type ResolveRelayResult,
  type RelayAccess,
  type RelayDecisionRow,
} from './relays';
export { relayQuorumQueries, needsQuorum, type RelayQuorumQueries, type QuorumApprovalResult } from './relay-quorum';
export { toolExecutionQueries, type ToolExecutionQueries, type ToolCallKey } from './tool-executions';
export {
  shadowQueries,
  type ShadowQueries,
  type SetShadowInput,
  type NewShadowDiff,
  type ShadowBatch,
  type ShadowDiffGroup,
} from './shadow';
export { policyQueries, type PolicyQueries, type SavePolicyInput, type SavePolicyResult } from './policies';
export { grantQueries, type GrantQueries, type CreateGrantInput, type ListGrantsInput } from './grants';
export { auditQueries, type AuditQueries, type RecordAuditInput, type ListAuditInput } from './audit';
export {
  userQueries,
  type UserQueries,
  type CreateUserInput,
  type CreateUserResult,
  type UpdateUserInput,
  type UpdateUserResult,
} from './users';
export { tokenQueries, type TokenQueries, type CreateApiTokenInput, type CreateLoginTokenInput } from './tokens';
export { sessionQueries, type SessionQueries, type CreateSessionInput } from './sessions';
export { settingQueries, type SettingQueries } from './settings';
export {
  leaseQueries,
  type LeaseQueries,
  type AcquireLeaseInput,
  type RenewLeasesInput,
  type RenewedLease,
  type TakeoverCandidate,
} from './leases';
export * from './schema';
export { relayInboxQueries, type RelayInboxQueries, type ListRelaysInput, type InboxRow } from './relay-inbox';
export { webhookQueries, type WebhookQueries, type ClaimedDelivery, type CreateEndpointInput } from './webhooks';
