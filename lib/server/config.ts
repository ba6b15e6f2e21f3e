// Configuration from the environment, parsed once with zod. Defaults make the embedded set-up
// work with zero variables: PGlite under .data/, the offline model, the workspace under .data/.
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_MAX_STREAMS_PER_USER, MAX_STREAMS } from './http/stream-slots';

/** Runs of Gatehouse's agent one user may have going at once when GATEHOUSE_MAX_RUNS_PER_USER is unset. */
export const DEFAULT_MAX_RUNS_PER_USER = 100;
/** Outside calls one user may hold waiting for a person when GATEHOUSE_MAX_WAITING_PER_USER is unset. */
export const DEFAULT_MAX_WAITING_PER_USER = 100;
/** The largest either of those may be set to. */
const MAX_HELD_PER_USER = 100_000;

/** An integer variable: `fallback` when unset or empty, else a whole number that `accepts` (else "must be <expected>"). */
const integer = (fallback: number, accepts: (n: number) => boolean, expected: string) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      const n = Number(v);
      if (!Number.isInteger(n) || !accepts(n)) {
        ctx.addIssue({ code: 'custom', message: `must be ${expected}, got "${v}"` });
        return z.NEVER;
      }
      return n;
    });

const positiveInt = (fallback: number) => integer(fallback, (n) => n > 0, 'a positive integer');
const countOf = (fallback: number, max: number) =>
  integer(fallback, (n) => n >= 0 && n <= max, `a whole number from 0 to ${max}`);

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

const EnvSchema = z.object({
  GATEHOUSE_DATA_DIR: optionalText,
  DATABASE_URL: optionalText.refine(
    (v) => v === undefined || /^postgres(ql)?:\/\//.test(v),
    'must be a postgres:// or postgresql:// URL',
  ),
  GATEHOUSE_WORKSPACE: optionalText,
  GATEHOUSE_MODEL: optionalText,
  GATEHOUSE_APPROVAL_TIMEOUT_S: positiveInt(300),
  GATEHOUSE_MAX_BODY_BYTES: positiveInt(1_000_000),
  GATEHOUSE_SSE_HEARTBEAT_MS: positiveInt(15_000),
  // At most the process's own cap: a larger number would never be reached.
  GATEHOUSE_MAX_STREAMS_PER_USER: integer(
    DEFAULT_MAX_STREAMS_PER_USER,
    (n) => n >= 1 && n <= MAX_STREAMS,
    `a whole number from 1 to ${MAX_STREAMS}`,
  ),
  GATEHOUSE_MAX_RUNS_PER_USER: integer(
    DEFAULT_MAX_RUNS_PER_USER,
    (n) => n >= 1 && n <= MAX_HELD_PER_USER,
    `a whole number from 1 to ${MAX_HELD_PER_USER}`,
  ),
  GATEHOUSE_MAX_WAITING_PER_USER: integer(
    DEFAULT_MAX_WAITING_PER_USER,
    (n) => n >= 1 && n <= MAX_HELD_PER_USER,
    `a whole number from 1 to ${MAX_HELD_PER_USER}`,
  ),
  GATEHOUSE_LEASE_TTL_S: positiveInt(15),
  GATEHOUSE_ADMIN_TOKEN: optionalText.refine(
    (v) => v === undefined || /^\S{16,}$/.test(v),
    'must be at least 16 characters without spaces',
  ),
  GATEHOUSE_PUBLIC_URL: optionalText.refine(
    (v) => v === undefined || /^https?:\/\/[^\s/]+(\/\S*)?$/.test(v),
    'must be an http:// or https:// URL',
  ),
  GATEHOUSE_SECRET: optionalText.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  GATEHOUSE_TRUSTED_PROXIES: countOf(0, 10),
  GATEHOUSE_MCP_CONFIG: optionalText,
  GATEHOUSE_MCP_UI_STDIO: optionalText.refine((v) => v === undefined || v === '0' || v === '1', 'must be 0 or 1'),
  GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE: z
    .enum(['', '0', '1'], { error: 'must be 0 or 1' })
    .optional()
    .transform((v) => v === '1'),
  GATEHOUSE_WEBHOOKS_TIMEOUT_MS: positiveInt(5_000),
  GATEHOUSE_WEBHOOKS_RETRY_BASE_MS: positiveInt(1_000),
  GATEHOUSE_WEBHOOKS_RETRY_FOR_S: positiveInt(3_600),
  GATEHOUSE_WEBHOOKS_POLL_MS: positiveInt(1_000),
});

/** The variables the config schema reads (README's configuration table lists them: config.test.ts). */
export const CONFIG_ENV = Object.keys(EnvSchema.shape);

export interface Config {
  /** Where embedded data lives (the PGlite database, the default workspace). */
  dataDir: string;
  /** PostgreSQL instead of PGlite when set. */
  databaseUrl?: string;
  /** The directory the tools act in. */
  workspace: string;
  /** Model spec: offline, openai:<model>, anthropic:<model>, openai-compatible:<model>. */
  model: string;
  approvalTimeoutS: number;
  maxBodyBytes: number;
  /** How often an open event stream sends a `: heartbeat` comment, so proxies keep it open. */
  sseHeartbeatMs: number;
  /** How many event streams one user (all their sessions and tokens) may hold open at once. */
  maxStreamsPerUser: number;
  /** How many runs of Gatehouse's agent one user may have going (running or waiting) on this server at once. */
  maxRunsPerUser: number;
  /** How many outside agents' calls (hooks, MCP clients) one user may hold waiting for a person on this server at once. */
  maxWaitingPerUser: number;
  /** With DATABASE_URL: how long a run lease lasts without renewal (renewed every third of it). */
  leaseTtlS: number;
  /** The initial admin's API token instead of a printed one-time link (scripted set-ups, tests). */
  adminToken?: string;
  /** Signs session cookies; unset: a random secret kept in the database. */
  secret?: string;
  /** Where people open Gatehouse (the printed sign-in link uses it); unset: http://127.0.0.1:<port>. */
  publicUrl?: string;
  /**
   * How many reverse proxies of our own append to X-Forwarded-For in front of the server: the
   * client's address for the login limits is that many entries left of the right-most one (which
   * scripts/server.mjs appends from the socket). 0: clients connect directly.
   */
  trustedProxies: number;
  /** The MCP servers file (`mcpServers`, Claude Desktop's shape); unset: no file. */
  mcpConfigPath?: string;
  /** Whether the Servers page may add stdio servers (commands run on the host). */
  mcpUiStdio: boolean;
  /** Webhook delivery (lib/server/webhooks): see WebhookConfig. */
  webhooks: WebhookConfig;
}

export interface WebhookConfig {
  /** Private, loopback and link-local targets are refused unless this is on (tests, one-machine set-ups). */
  allowPrivate: boolean;
  /** How long one attempt may take before it counts as failed. */
  timeoutMs: number;
  /** The first retry's delay; each later one doubles it. */
  retryBaseMs: number;
  /** How long after the event a failing delivery keeps being retried before it is given up. */
  retryForS: number;
  /** How often each instance looks for due deliveries queued by other instances. */
  pollMs: number;
}

export class ConfigError extends Error {
  readonly code = 'invalid_config';
  constructor(readonly issues: { variable: string; message: string }[]) {
    super(`Invalid configuration: ${issues.map((i) => `${i.variable} ${i.message}`).join('; ')}`);
    this.name = 'ConfigError';
  }
}

export function parseConfig(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({ variable: String(issue.path[0] ?? ''), message: issue.message })),
    );
  }
  const e = parsed.data;
  const dataDir = path.resolve(cwd, e.GATEHOUSE_DATA_DIR ?? '.data');
  return {
    dataDir,
    ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL } : {}),
    workspace: path.resolve(cwd, e.GATEHOUSE_WORKSPACE ?? path.join(dataDir, 'workspace')),
    model: e.GATEHOUSE_MODEL ?? 'offline',
    approvalTimeoutS: e.GATEHOUSE_APPROVAL_TIMEOUT_S,
    maxBodyBytes: e.GATEHOUSE_MAX_BODY_BYTES,
    sseHeartbeatMs: e.GATEHOUSE_SSE_HEARTBEAT_MS,
    maxStreamsPerUser: e.GATEHOUSE_MAX_STREAMS_PER_USER,
    maxRunsPerUser: e.GATEHOUSE_MAX_RUNS_PER_USER,
    maxWaitingPerUser: e.GATEHOUSE_MAX_WAITING_PER_USER,
    leaseTtlS: e.GATEHOUSE_LEASE_TTL_S,
    trustedProxies: e.GATEHOUSE_TRUSTED_PROXIES,
    mcpUiStdio: e.GATEHOUSE_MCP_UI_STDIO === '1',
    ...(e.GATEHOUSE_MCP_CONFIG ? { mcpConfigPath: path.resolve(cwd, e.GATEHOUSE_MCP_CONFIG) } : {}),
    webhooks: {
      allowPrivate: e.GATEHOUSE_WEBHOOKS_ALLOW_PRIVATE,
      timeoutMs: e.GATEHOUSE_WEBHOOKS_TIMEOUT_MS,
      retryBaseMs: e.GATEHOUSE_WEBHOOKS_RETRY_BASE_MS,
      retryForS: e.GATEHOUSE_WEBHOOKS_RETRY_FOR_S,
      pollMs: e.GATEHOUSE_WEBHOOKS_POLL_MS,
    },
    ...(e.GATEHOUSE_ADMIN_TOKEN ? { adminToken: e.GATEHOUSE_ADMIN_TOKEN } : {}),
    ...(e.GATEHOUSE_SECRET ? { secret: e.GATEHOUSE_SECRET } : {}),
    ...(e.GATEHOUSE_PUBLIC_URL ? { publicUrl: e.GATEHOUSE_PUBLIC_URL.replace(/\/+$/, '') } : {}),
  };
}
