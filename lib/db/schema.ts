// The one schema of both stores (PGlite and PostgreSQL). Timestamps are timestamptz(3) read as
// Date (millisecond precision, so a Date round-trips exactly and serves as a pagination key).
// Status columns carry CHECK constraints; run_id is a foreign key only where rows die with the run.
import { sql, type SQL } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import {
  GRANT_SCOPES,
  RELAY_STATUSES,
  ROLES,
  RUN_SOURCES,
  TOKEN_PURPOSES,
  RUN_STATUSES,
  WEBHOOK_EVENT_TYPES,
  type AuditKind,
  type GrantScope,
  type Role,
  type RunStatus,
} from '../contract';
import type { Mode, Policy, Rule } from '../policy/types';
import type { RelayRequest, RelayResponse } from '../contract';

// The value lists are the contract's (lib/contract): the CHECK constraints hold what the API speaks.
export { GRANT_SCOPES, RELAY_STATUSES, RUN_STATUSES, type AuditKind, type GrantScope, type RunStatus };
export const TOOL_EXECUTION_STATUSES = ['claimed', 'done'] as const;
export type ToolExecutionStatus = (typeof TOOL_EXECUTION_STATUSES)[number];

/** What a paused run needs to resume: the conversation, the step, the tool calls in flight. */
export interface RunState {
  messages?: unknown[];
  step?: number;
  pendingToolCalls?: { toolCallId: string; tool: string; params: unknown; relayId?: string }[];
  [key: string]: unknown;
}

type JsonObject = Record<string, unknown>;

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const createdAt = () => at('created_at').notNull().defaultNow();
/** CHECK (column IN (...)) with the values inlined: drizzle-kit writes it into the migration as is. */
const oneOf = (column: AnyPgColumn, values: readonly string[]): SQL =>
  sql`${column} in (${sql.raw(values.map((v) => `'${v}'`).join(', '))})`;

export const runs = pgTable(
  'runs',
  {
    id: text('id').primaryKey(),
    sessionId: text('session_id').notNull(),
    status: text('status', { enum: RUN_STATUSES }).notNull().default('running'),
    mode: text('mode').$type<Mode>(),
    agent: text('agent'),
    model: text('model'),
    title: text('title'),
    owner: text('owner'),
    /**
     * Who executes the run's tools: `agent` (Gatehouse's own loop, resumed after a restart), or an
     * outside agent that only asks the gate (`hook`: Claude Code and other hook callers; `mcp`: an
     * MCP client of /api/mcp). Outside runs are never resumed: their agent holds the conversation.
     */
    source: text('source', { enum: RUN_SOURCES }).notNull().default('agent'),
    /** An outside run's own session id (Claude Code's `session_id`, an MCP session), unique per owner and agent. */
    externalId: text('external_id'),
    state: jsonb('state').$type<RunState>().notNull().default({}),
    /** The last event seq handed out; events.ts bumps it under the row lock. */
    lastEventSeq: integer('last_event_seq').notNull().default(0),
    lastMessageSeq: integer('last_message_seq').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('runs_status_check', oneOf(t.status, RUN_STATUSES)),
    index('runs_created_idx').on(t.createdAt, t.id),
    index('runs_status_created_idx').on(t.status, t.createdAt),
    index('runs_session_idx').on(t.sessionId),
    check('runs_source_check', oneOf(t.source, RUN_SOURCES)),
    uniqueIndex('runs_external_idx')
      .on(t.source, t.owner, t.agent, t.externalId)
      .where(sql`${t.externalId} is not null`),
  ],
);

/** The transcript, one row per model message, in order. */
export const messages = pgTable(
  'messages',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    role: text('role').notNull(),
    content: jsonb('content').$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'messages_pk', columns: [t.runId, t.seq] })],
);

/** Append-only event log; (run_id, seq) is gapless per run so SSE clients resume by seq. */
export const events = pgTable(
  'events',
  {
    runId: text('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    type: text('type').notNull(),
    data: jsonb('data').$type<JsonObject>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'events_pk', columns: [t.runId, t.seq] })],
);

export const relays = pgTable(
  'relays',
  {
    id: text('id').primaryKey(),
    runId: text('run_id').notNull(),
    sessionId: text('session_id').notNull(),
    agentId: text('agent_id').notNull(),
    toolCallId: text('tool_call_id').notNull(),
    tool: text('tool').notNull(),
    params: jsonb('params').$type<JsonObject>().notNull(),
    request: jsonb('request').$type<RelayRequest>().notNull(),
    status: text('status', { enum: RELAY_STATUSES }).notNull().default('pending'),
    /** The human's RelayResponse, when there was one. */
    response: jsonb('response').$type<RelayResponse>(),
    reason: text('reason'),
    decidedBy: text('decided_by'),
    decidedAt: at('decided_at'),
    expiresAt: at('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('relays_status_check', oneOf(t.status, RELAY_STATUSES)),
    index('relays_status_expires_idx').on(t.status, t.expiresAt),
    index('relays_session_status_idx').on(t.sessionId, t.status),
    index('relays_run_status_idx').on(t.runId, t.status),
    index('relays_tool_call_idx').on(t.toolCallId),
  ],
);

/** At most one execution per tool call, across restarts. Keyed by run too: call ids are per conversation. */
export const toolExecutions = pgTable(
  'tool_executions',
  {
    runId: text('run_id').notNull(),
    toolCallId: text('tool_call_id').notNull(),
    status: text('status', { enum: TOOL_EXECUTION_STATUSES }).notNull().default('claimed'),
    result: jsonb('result').$type<unknown>(),
    claimedAt: at('claimed_at').notNull().defaultNow(),
    finishedAt: at('finished_at'),
  },
  (t) => [
    primaryKey({ name: 'tool_executions_pk', columns: [t.runId, t.toolCallId] }),
    check('tool_executions_status_check', oneOf(t.status, TOOL_EXECUTION_STATUSES)),
  ],
);

/** Every save is a new row; the highest version is the policy in force. */
export const policyVersions = pgTable('policy_versions', {
  version: integer('version').primaryKey(),
  policy: jsonb('policy').$type<Policy>().notNull(),
  createdBy: text('created_by').notNull(),
  createdAt: createdAt(),
  note: text('note'),
});

export const grants = pgTable(
  'grants',
  {
    id: text('id').primaryKey(),
    rule: jsonb('rule').$type<Rule>().notNull(),
    scope: text('scope', { enum: GRANT_SCOPES }).notNull(),
    sessionId: text('session_id'),
    once: boolean('once').notNull().default(false),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    revokedAt: at('revoked_at'),
    revokedBy: text('revoked_by'),
    /** Set with revoked_at when an allow-once grant was used up. */
    consumedAt: at('consumed_at'),
  },
  (t) => [
    check('grants_scope_check', oneOf(t.scope, GRANT_SCOPES)),
    check('grants_session_check', sql`${t.scope} = 'global' or ${t.sessionId} is not null`),
    index('grants_session_idx').on(t.sessionId),
    index('grants_scope_idx').on(t.scope),
  ],
);

export const audit = pgTable(
  'audit',
  {
    id: text('id').primaryKey(),
    at: at('at').notNull().defaultNow(),
    kind: text('kind').$type<AuditKind>().notNull(),
    runId: text('run_id'),
    sessionId: text('session_id'),
    agentId: text('agent_id'),
    tool: text('tool'),
    params: jsonb('params').$type<JsonObject>(),
    action: text('action'),
    reason: text('reason'),
    rule: jsonb('rule').$type<JsonObject>(),
    decidedBy: text('decided_by'),
    waitMs: bigint('wait_ms', { mode: 'number' }),
    details: jsonb('details').$type<JsonObject>(),
  },
  (t) => [
    index('audit_at_idx').on(t.at, t.id),
    index('audit_run_idx').on(t.runId, t.at),
    index('audit_tool_idx').on(t.tool, t.at),
    index('audit_action_idx').on(t.action, t.at),
    index('audit_decided_by_idx').on(t.decidedBy, t.at),
  ],
);

export type RunRow = typeof runs.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type EventRow = typeof events.$inferSelect;
export type RelayRow = typeof relays.$inferSelect;
export type ToolExecutionRow = typeof toolExecutions.$inferSelect;
export type PolicyVersionRow = typeof policyVersions.$inferSelect;
export type GrantRow = typeof grants.$inferSelect;
export type AuditRow = typeof audit.$inferSelect;

// --- Access control (docs/AUTH.md) ---

export const USER_ROLES = ROLES;
export type UserRole = Role;

/** People. Usernames are unique ignoring case; a user without a password signs in by link or token only. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    displayName: text('display_name').notNull(),
    role: text('role', { enum: USER_ROLES }).notNull().default('user'),
    /** `scrypt$N$r$p$salt$hash` (lib/auth/password.ts); null: no password sign-in. */
    passwordHash: text('password_hash'),
    disabled: boolean('disabled').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('users_role_check', oneOf(t.role, USER_ROLES)),
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    index('users_role_idx').on(t.role),
  ],
);

/** Bearer tokens for scripts. Only the sha256 of the secret is stored. */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
    expiresAt: at('expires_at'),
    revokedAt: at('revoked_at'),
    ...agentTokenColumns(),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_idx').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
    check('api_tokens_purpose_check', oneOf(t.purpose, TOKEN_PURPOSES)),
  ],
);

/** One-time sign-in links (the first admin's, or one an admin issues). Consumed by one conditional update. */
export const loginTokens = pgTable(
  'login_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('login_tokens_user_idx').on(t.userId)],
);

/**
 * Browser sessions: one row per sign-in, keyed by the sha256 of the random token in the signed
 * cookie. A request is signed in only while its row exists and has not expired, so deleting rows
 * ends sessions: sign-out (one), password reset, disable and "sign out everywhere" (all of a user's).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Server-wide values created once, e.g. the cookie-signing secret when GATEHOUSE_SECRET is unset. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});

export type UserRow = typeof users.$inferSelect;
export type ApiTokenRow = typeof apiTokens.$inferSelect;
export type LoginTokenRow = typeof loginTokens.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type SettingRow = typeof settings.$inferSelect;

// --- Run leases (multi-instance, issue 7; docs/DEPLOY.md) ---

/**
 * Who executes a run: one row per run that has (or had) an owner. A table of its own, not columns
 * on `runs`: renewals every few seconds then rewrite a narrow row instead of the run row (with
 * its checkpointed `state`), and never queue behind the run-row lock that event appends take.
 * `owner` is null once released; `epoch` goes up whenever the lease changes hands (a fencing
 * token). Expiry is judged by the database clock (now()), one clock for every instance.
 */
export const runLeases = pgTable(
  'run_leases',
  {
    runId: text('run_id')
      .primaryKey()
      .references(() => runs.id, { onDelete: 'cascade' }),
    owner: text('owner'),
    expiresAt: at('expires_at').notNull(),
    epoch: integer('epoch').notNull().default(1),
    acquiredAt: at('acquired_at').notNull().defaultNow(),
  },
  (t) => [index('run_leases_owner_idx').on(t.owner), index('run_leases_expires_idx').on(t.expiresAt)],
);

export type RunLeaseRow = typeof runLeases.$inferSelect;

// --- Shadow policy (policy/shadow: a candidate evaluated beside the live policy) ---

/**
 * The shadow policy: at most one row (the unique `slot`). Setting a new shadow replaces the row
 * (a new `id`), so its differences (cascade) and counters start fresh. `baseVersion` is the live
 * version it was set against. The counters are bumped by the background writer in batches.
 */
export const policyShadow = pgTable(
  'policy_shadow',
  {
    id: text('id').primaryKey(),
    slot: text('slot').notNull().default('current'),
    policy: jsonb('policy').$type<Policy>().notNull(),
    baseVersion: integer('base_version').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    note: text('note'),
    /** Real decisions compared with the shadow, identical ones included. */
    compared: bigint('compared', { mode: 'number' }).notNull().default(0),
    /** Decisions the shadow agreed with (counted, never stored). */
    same: bigint('same', { mode: 'number' }).notNull().default(0),
    /** Decisions not compared: the background queue was full, or a write failed. */
    dropped: bigint('dropped', { mode: 'number' }).notNull().default(0),
  },
  (t) => [
    uniqueIndex('policy_shadow_slot_idx').on(t.slot),
    check('policy_shadow_slot_check', sql`${t.slot} = 'current'`),
  ],
);

/** One real decision the shadow would have made differently. */
export const policyShadowDiffs = pgTable(
  'policy_shadow_diffs',
  {
    id: text('id').primaryKey(),
    shadowId: text('shadow_id')
      .notNull()
      .references(() => policyShadow.id, { onDelete: 'cascade' }),
    at: at('at').notNull(),
    runId: text('run_id'),
    agentId: text('agent_id').notNull(),
    tool: text('tool').notNull(),
    params: jsonb('params').$type<JsonObject>().notNull(),
    liveAction: text('live_action').notNull(),
    shadowAction: text('shadow_action').notNull(),
    live: jsonb('live').$type<JsonObject>().notNull(),
    shadow: jsonb('shadow').$type<JsonObject>().notNull(),
  },
  (t) => [
    index('policy_shadow_diffs_at_idx').on(t.shadowId, t.at, t.id),
    index('policy_shadow_diffs_group_idx').on(t.shadowId, t.liveAction, t.shadowAction, t.tool),
  ],
);

export type PolicyShadowRow = typeof policyShadow.$inferSelect;
export type PolicyShadowDiffRow = typeof policyShadowDiffs.$inferSelect;

// ---- MCP upstream servers (issue 22): servers added on the Servers page, pinned tool definitions ----

/** A server added by an administrator. `secrets` holds `env` and `headers`, encrypted (never plain). */
export const mcpServers = pgTable('mcp_servers', {
  name: text('name').primaryKey(),
  /** The server's config without `env` and `headers`. */
  config: jsonb('config').$type<JsonObject>().notNull(),
  /** AES-256-GCM of `{ env, headers }` under a key derived from GATEHOUSE_SECRET; null: none. */
  secrets: text('secrets'),
  createdAt: createdAt(),
  updatedAt: at('updated_at').notNull().defaultNow(),
  updatedBy: text('updated_by'),
});

/** The first definition seen of each upstream tool, and a changed one awaiting review. */
export const mcpToolPins = pgTable(
  'mcp_tool_pins',
  {
    server: text('server').notNull(),
    tool: text('tool').notNull(),
    digest: text('digest').notNull(),
    definition: jsonb('definition').$type<JsonObject>().notNull(),
    pendingDigest: text('pending_digest'),
    pendingDefinition: jsonb('pending_definition').$type<JsonObject>(),
    pendingSeenAt: at('pending_seen_at'),
    acceptedBy: text('accepted_by'),
    acceptedAt: at('accepted_at'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.server, t.tool] })],
);

export type McpServerRow = typeof mcpServers.$inferSelect;
export type McpToolPinRow = typeof mcpToolPins.$inferSelect;

// ---- Relays that need several approvers (issue 23: edit and quorum) --------------------------
// A relay whose ask rule names approvers (`approvals`) stays pending until that many
// distinct people approved. The tally row is what makes counting atomic across instances: each
// approval bumps it with one upsert (row-locked, re-read at its latest version), and the approval
// that reaches `needed` settles the relay in the same statement.

/** The running tally of a pending relay that needs several approvers; `params`: the edited call they approve. */
export const relayQuorums = pgTable('relay_quorums', {
  relayId: text('relay_id')
    .primaryKey()
    .references(() => relays.id, { onDelete: 'cascade' }),
  approvals: integer('approvals').notNull(),
  needed: integer('needed').notNull(),
  params: jsonb('params').$type<JsonObject>(),
});

/** Every approval counted toward a relay's quorum: one per person (the unique key refuses a second). */
export const relayApprovals = pgTable(
  'relay_approvals',
  {
    relayId: text('relay_id')
      .notNull()
      .references(() => relays.id, { onDelete: 'cascade' }),
    userId: text('user_id').notNull(),
    role: text('role').notNull(),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('relay_approvals_relay_user_idx').on(t.relayId, t.userId)],
);

export type RelayQuorumRow = typeof relayQuorums.$inferSelect;
export type RelayApprovalRow = typeof relayApprovals.$inferSelect;

// --- Webhooks (approvals away from the desk: relay events sent to outside endpoints) ---

export const WEBHOOK_EVENTS = WEBHOOK_EVENT_TYPES;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export const WEBHOOK_FORMATS = ['json', 'slack'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * An endpoint an admin registered. `secret` is the signing secret encrypted at rest (AES-256-GCM,
 * key derived from the server secret: lib/server/webhooks/secret-box.ts); it is never returned
 * after creation. Events that happened before `createdAt` are not sent to it.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    url: text('url').notNull(),
    events: text('events').array().$type<WebhookEvent[]>().notNull(),
    format: text('format', { enum: WEBHOOK_FORMATS }).notNull().default('json'),
    secret: text('secret').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('webhook_endpoints_format_check', oneOf(t.format, WEBHOOK_FORMATS))],
);

/**
 * The delivery queue and its log: one row per (endpoint, relay, event), so however many instances
 * enqueue the same event, it is queued once (the unique index decides). A sender claims a due row
 * by pushing `lockedUntil` forward in one conditional UPDATE, so one instance sends it at a time.
 * The row id is the delivery id receivers de-duplicate on.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    relayId: text('relay_id').notNull(),
    event: text('event', { enum: WEBHOOK_EVENTS }).notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    lockedUntil: at('locked_until'),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: at('delivered_at'),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_idx').on(t.endpointId, t.relayId, t.event),
    index('webhook_deliveries_due_idx').on(t.status, t.nextAttemptAt),
    index('webhook_deliveries_log_idx').on(t.endpointId, t.createdAt, t.id),
    check('webhook_deliveries_status_check', oneOf(t.status, WEBHOOK_DELIVERY_STATUSES)),
    check('webhook_deliveries_event_check', oneOf(t.event, WEBHOOK_EVENTS)),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
// --- end of webhooks ---

// --- Agent tokens (an API token that only asks the gate; docs/decisions/0027-agent-tokens.md) ---

/**
 * The columns of api_tokens for agent tokens (a function declaration, so hoisted above apiTokens).
 * `purpose`: `full` (every route the user's role allows; what every token was before) or `agent`
 * (only the hook endpoints and /api/mcp). NOT NULL with a default, so existing tokens stay full.
 */
function agentTokenColumns() {
  return { purpose: text('purpose', { enum: TOKEN_PURPOSES }).notNull().default('full') };
}
// --- end of agent tokens ---
