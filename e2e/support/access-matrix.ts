// The role × route table of e2e/api-access.spec.ts: one row per API route and method (some routes
// twice: on the caller's own run and on another user's), one expected status per principal. Where a
// role is allowed the request is valid, so the status shows the access decision: 2xx, or a 4xx the
// route itself gives after access passed (a stale If-Match → 412, an unknown grant → 404, a
// finished run → 409). Nothing here leaves the shared policy changed.
import { randomUUID } from 'node:crypto';
import { expect } from '@playwright/test';
import { randomClientIp, send, type Account, type Principal, type PrincipalName } from './access-principals';
import type { RunTracker, StartedRun, WaitingRun } from './access-runs';

export interface World {
  who: Record<PrincipalName, Principal>;
  /** A second `user`: the owner of "another user's" runs. */
  other: Principal;
  /** A user that the users rows change (display name, password, sign-in link, sessions ended). */
  target: Account;
  /**
   * Accounts of the `user` and `approver` roles whose sessions the sign-out rows may end (ending the
   * principals' own would sign them out for the rows after), and their password.
   */
  spares: Partial<Record<PrincipalName, Account>>;
  password: string;
  suffix: string;
  runs: RunTracker;
  userDone: StartedRun;
  otherDone: StartedRun;
  /** A finished run of `other` whose session the matrix tries to continue (the admin may: then it holds an admin's run too). */
  otherSession: StartedRun;
  userWaiting: WaitingRun;
  otherWaiting: WaitingRun;
}

export interface Req {
  path: string;
  data?: unknown;
  headers?: Record<string, string>;
}

export interface Row {
  /** `METHOD /api/path` as documented, with `:id` placeholders. */
  route: string;
  /** Which case of the route, e.g. "another user's run". */
  what?: string;
  /** The route's access (docs/AUTH.md); a role refusal is `forbidden:<access>`. */
  access: string;
  expect: Record<PrincipalName, number>;
  /** Error codes other than the defaults (401 `unauthorized`, 403 `forbidden:<access>`). */
  codes?: Partial<Record<PrincipalName, string>>;
  request?: (w: World, name: PrincipalName) => Req | Promise<Req>;
}

/** A version no policy will have: a save with it fails 412 after the access check, changing nothing. */
const STALE = { 'If-Match': '"2000000000"' };

async function currentPolicy(w: World): Promise<unknown> {
  const response = await send(w.who.admin, 'GET', '/api/policy');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { policy: unknown }).policy;
}

/** A token of the caller's own to revoke (anonymous gets the user's: refused before it matters). */
async function ownTokenId(w: World, name: PrincipalName): Promise<string> {
  const owner = name === 'anonymous' ? w.who.user : w.who[name];
  const response = await send(owner, 'POST', '/api/tokens', { data: { name: `matrix-${name}` } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A fresh waiting run of `owner` (none for anonymous, whose request is refused first). */
async function freshRelay(w: World, owner: Principal | undefined, fallback: WaitingRun): Promise<WaitingRun> {
  return owner
    ? w.runs.startWaiting(owner, `matrix-relay-${w.suffix}-${Math.random().toString(36).slice(2, 7)}`)
    : fallback;
}

/**
 * For the sign-out rows: a fresh session of the principal's spare account (same role) in place of
 * the principal's own cookie; the admin (a Bearer token, no session) and anonymous send theirs.
 */
async function spareSession(w: World, name: PrincipalName): Promise<Record<string, string>> {
  const spare = w.spares[name];
  if (!spare) return {};
  const base = w.who.admin.baseURL;
  const response = await fetch(new URL('/api/auth/login', base), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: new URL(base).origin, 'X-Forwarded-For': randomClientIp() },
    body: JSON.stringify({ username: spare.username, password: w.password }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('gh_session='));
  expect(cookie, 'the login answer sets gh_session').toBeDefined();
  return { Cookie: cookie!.split(';')[0]! };
}

const deny = { approved: false, reason: 'access matrix' };

const signedIn = (ok: number) => ({ anonymous: 401, user: ok, approver: ok, admin: ok });
const adminOnly = (ok: number) => ({ anonymous: 401, user: 403, approver: 403, admin: ok });
const approverUp = (ok: number) => ({ anonymous: 401, user: 403, approver: ok, admin: ok });
const anyone = (status: number) => ({ anonymous: status, user: status, approver: status, admin: status });

export const ROWS: Row[] = [
  { route: 'GET /api/health', access: 'public', expect: anyone(200) },
  { route: 'GET /api/agents', access: 'signed-in', expect: signedIn(200) },

  // Public sign-in routes: an invalid body (400) or an unknown token (401 with its own code) shows
  // the route itself answered; no password is tried, so the login throttle counts nothing.
  {
    route: 'POST /api/auth/login',
    what: 'empty body',
    access: 'public',
    expect: anyone(400),
    codes: { anonymous: 'bad_request', user: 'bad_request', approver: 'bad_request', admin: 'bad_request' },
    request: () => ({ path: '/api/auth/login', data: {} }),
  },
  {
    route: 'POST /api/auth/login-token',
    what: 'unknown token',
    access: 'public',
    expect: anyone(401),
    codes: {
      anonymous: 'unauthorized:login_token',
      user: 'unauthorized:login_token',
      approver: 'unauthorized:login_token',
      admin: 'unauthorized:login_token',
    },
    // Failed links count against the client address (the login limit): each request its own address.
    request: () => ({
      path: '/api/auth/login-token',
      headers: { 'X-Forwarded-For': randomClientIp() },
      data: { token: 'not-a-login-token' },
    }),
  },
  // Signing out ends the session the cookie names: signed-in roles sign out a spare account's fresh session.
  {
    route: 'POST /api/auth/logout',
    access: 'public',
    expect: anyone(200),
    request: async (w, name) => ({ path: '/api/auth/logout', headers: await spareSession(w, name) }),
  },
  {
    route: 'DELETE /api/auth/sessions',
    access: 'signed-in',
    expect: signedIn(200),
    request: async (w, name) => ({ path: '/api/auth/sessions', headers: await spareSession(w, name) }),
  },
  { route: 'GET /api/auth/me', access: 'signed-in', expect: signedIn(200) },
  // Changing one's own password: an empty body (400 after the access check) changes nobody's password.
  {
    route: 'POST /api/auth/password',
    what: 'empty body',
    access: 'signed-in',
    expect: signedIn(400),
    codes: { user: 'bad_request', approver: 'bad_request', admin: 'bad_request' },
    request: () => ({ path: '/api/auth/password', data: {} }),
  },

  { route: 'GET /api/users', access: 'users:manage', expect: adminOnly(200) },
  {
    route: 'POST /api/users',
    access: 'users:manage',
    expect: adminOnly(201),
    request: (w, name) => ({
      path: '/api/users',
      data: { username: `matrix-new-${name}-${w.suffix}`, role: 'user', password: 'matrix-new-password' },
    }),
  },
  {
    route: 'PATCH /api/users/:id',
    access: 'users:manage',
    expect: adminOnly(200),
    request: (w) => ({ path: `/api/users/${w.target.id}`, data: { displayName: 'Matrix Target' } }),
  },
  {
    route: 'POST /api/users/:id/password',
    access: 'users:manage',
    expect: adminOnly(200),
    request: (w) => ({ path: `/api/users/${w.target.id}/password`, data: { password: 'target-password-1' } }),
  },
  {
    route: 'POST /api/users/:id/login-link',
    access: 'users:manage',
    expect: adminOnly(201),
    request: (w) => ({ path: `/api/users/${w.target.id}/login-link` }),
  },
  {
    route: 'DELETE /api/users/:id/sessions',
    access: 'users:manage',
    expect: adminOnly(200),
    request: (w) => ({ path: `/api/users/${w.target.id}/sessions` }),
  },

  { route: 'GET /api/relays', access: 'relays:decide:own', expect: signedIn(200) },
  {
    route: 'GET /api/relays/:id',
    what: 'own run',
    access: 'relays:decide:own',
    expect: signedIn(200),
    request: (w) => ({ path: `/api/relays/${w.userWaiting.relayId}` }),
  },
  {
    route: 'GET /api/relays/:id',
    what: "another user's run",
    access: 'relays:decide:own',
    expect: { anonymous: 401, user: 404, approver: 200, admin: 200 },
    codes: { user: 'not_found:relay' },
    request: (w) => ({ path: `/api/relays/${w.otherWaiting.relayId}` }),
  },
  { route: 'GET /api/webhooks', access: 'webhooks:manage', expect: adminOnly(200) },
  {
    route: 'POST /api/webhooks',
    what: 'a URL that is not http(s): refused after the access check',
    access: 'webhooks:manage',
    expect: adminOnly(422),
    request: () => ({ path: '/api/webhooks', data: { url: 'ftp://example.com/hook' } }),
  },
  {
    route: 'DELETE /api/webhooks/:id',
    what: 'unknown webhook',
    access: 'webhooks:manage',
    expect: adminOnly(404),
    request: () => ({ path: `/api/webhooks/${randomUUID()}` }),
  },
  {
    route: 'GET /api/webhooks/:id/deliveries',
    what: 'unknown webhook',
    access: 'webhooks:manage',
    expect: adminOnly(404),
    request: () => ({ path: `/api/webhooks/${randomUUID()}/deliveries` }),
  },

  // Routes for agents only (an API token; a session cookie is not enough): the cookie principals
  // get 401 before anything else; the admin's Bearer token reaches the route, which refuses the body.
  {
    route: 'POST /api/hooks/claude-code',
    what: 'a body without session_id',
    access: 'runs:start',
    expect: { anonymous: 401, user: 401, approver: 401, admin: 400 },
    request: () => ({ path: '/api/hooks/claude-code', data: { hook_event_name: 'PreToolUse' } }),
  },
  {
    route: 'POST /api/hooks/gemini-cli',
    what: 'a body without session_id',
    access: 'runs:start',
    expect: { anonymous: 401, user: 401, approver: 401, admin: 400 },
    request: () => ({ path: '/api/hooks/gemini-cli', data: { hook_event_name: 'BeforeTool' } }),
  },
  {
    route: 'POST /api/hooks/codex',
    what: 'a body without session_id',
    access: 'runs:start',
    expect: { anonymous: 401, user: 401, approver: 401, admin: 400 },
    request: () => ({ path: '/api/hooks/codex', data: { hook_event_name: 'PreToolUse' } }),
  },
  {
    route: 'POST /api/hooks/decide',
    what: 'a body without tool',
    access: 'runs:start',
    expect: { anonymous: 401, user: 401, approver: 401, admin: 400 },
    request: () => ({ path: '/api/hooks/decide', data: { params: {} } }),
  },
  {
    route: 'POST /api/mcp',
    what: 'not JSON-RPC',
    access: 'runs:start',
    expect: { anonymous: 401, user: 401, approver: 401, admin: 400 },
    request: () => ({ path: '/api/mcp', data: { hello: 'world' } }),
  },
  {
    route: 'GET /api/mcp',
    access: 'runs:start',
    expect: { anonymous: 401, user: 401, approver: 401, admin: 405 },
    request: () => ({ path: '/api/mcp' }),
  },
  {
    route: 'DELETE /api/mcp',
    access: 'runs:start',
    expect: { anonymous: 401, user: 401, approver: 401, admin: 405 },
    request: () => ({ path: '/api/mcp' }),
  },

  { route: 'GET /api/servers', access: 'servers:manage', expect: adminOnly(200) },
  {
    route: 'PUT /api/servers/:id',
    what: 'a body that is not an object',
    access: 'servers:manage',
    expect: adminOnly(400),
    request: () => ({ path: `/api/servers/matrix-${randomUUID().slice(0, 8)}`, data: [] }),
  },
  {
    route: 'DELETE /api/servers/:id',
    what: 'unknown server',
    access: 'servers:manage',
    expect: adminOnly(404),
    request: () => ({ path: `/api/servers/matrix-${randomUUID().slice(0, 8)}` }),
  },
  {
    route: 'POST /api/servers/:id/test',
    what: 'unknown server',
    access: 'servers:manage',
    expect: adminOnly(404),
    request: () => ({ path: `/api/servers/matrix-${randomUUID().slice(0, 8)}/test` }),
  },
  {
    route: 'POST /api/servers/:id/accept',
    what: 'a body without a digest',
    access: 'servers:manage',
    expect: adminOnly(400),
    request: () => ({ path: `/api/servers/matrix-${randomUUID().slice(0, 8)}/accept`, data: { tool: 'x' } }),
  },

  { route: 'GET /api/tokens', access: 'tokens:manage:own', expect: signedIn(200) },
  {
    route: 'POST /api/tokens',
    access: 'tokens:manage:own',
    expect: signedIn(201),
    request: (_w, name) => ({ path: '/api/tokens', data: { name: `matrix-${name}` } }),
  },
  {
    route: 'PATCH /api/tokens/:id',
    what: 'own token',
    access: 'tokens:manage:own',
    expect: signedIn(200),
    request: async (w, name) => ({
      path: `/api/tokens/${await ownTokenId(w, name)}`,
      data: { mcpWithoutElicitation: 'wait' },
    }),
  },
  {
    route: 'DELETE /api/tokens/:id',
    what: 'own token',
    access: 'tokens:manage:own',
    expect: signedIn(200),
    request: async (w, name) => ({ path: `/api/tokens/${await ownTokenId(w, name)}` }),
  },

  { route: 'GET /api/policy', access: 'policy:read', expect: signedIn(200) },
  { route: 'GET /api/policy/versions', access: 'policy:read', expect: signedIn(200) },
  {
    route: 'POST /api/policy/evaluate',
    access: 'policy:read',
    expect: signedIn(200),
    request: () => ({ path: '/api/policy/evaluate', data: { call: { tool: 'bash', params: { command: 'ls' } } } }),
  },
  {
    route: 'PUT /api/policy',
    what: 'stale If-Match',
    access: 'policy:edit',
    expect: adminOnly(412),
    codes: { admin: 'conflict:policy_version' },
    request: async (w) => ({
      path: '/api/policy',
      headers: STALE,
      data: { policy: await currentPolicy(w), note: 'access matrix' },
    }),
  },
  {
    route: 'POST /api/policy/import',
    what: 'stale If-Match',
    access: 'policy:edit',
    expect: adminOnly(412),
    codes: { admin: 'conflict:policy_version' },
    request: async (w) => ({ path: '/api/policy/import', headers: STALE, data: await currentPolicy(w) }),
  },
  {
    route: 'POST /api/policy/tests',
    access: 'policy:edit',
    expect: adminOnly(200),
    request: async (w) => ({ path: '/api/policy/tests', data: { policy: await currentPolicy(w) } }),
  },
  // The shadow: reads change nothing; writes are refused after the access check (a bad body, a
  // shadow id that is not set, a missing If-Match), so the shared shadow stays as it was.
  { route: 'GET /api/policy/shadow', access: 'policy:edit', expect: adminOnly(200) },
  {
    route: 'PUT /api/policy/shadow',
    what: 'invalid policy',
    access: 'policy:edit',
    expect: adminOnly(400),
    codes: { admin: 'bad_request:policy' },
    request: () => ({ path: '/api/policy/shadow', data: { policy: { rules: 'none' } } }),
  },
  {
    route: 'DELETE /api/policy/shadow',
    what: 'a shadow not set',
    access: 'policy:edit',
    expect: adminOnly(404),
    codes: { admin: 'not_found:shadow' },
    request: () => ({ path: '/api/policy/shadow?id=matrix-none' }),
  },
  {
    route: 'GET /api/policy/shadow/diffs',
    what: 'a shadow not set',
    access: 'policy:edit',
    expect: adminOnly(404),
    codes: { admin: 'not_found:shadow' },
    request: () => ({ path: '/api/policy/shadow/diffs?id=matrix-none' }),
  },
  {
    route: 'POST /api/policy/shadow/promote',
    what: 'If-Match missing',
    access: 'policy:edit',
    expect: adminOnly(428),
    codes: { admin: 'precondition_required' },
    request: () => ({ path: '/api/policy/shadow/promote' }),
  },
  {
    route: 'POST /api/policy/import',
    what: '?dryRun=1',
    access: 'policy:read',
    expect: signedIn(200),
    request: async (w) => ({ path: '/api/policy/import?dryRun=1', data: await currentPolicy(w) }),
  },

  { route: 'GET /api/grants', access: 'grants:read', expect: approverUp(200) },
  {
    route: 'DELETE /api/grants/:id',
    what: 'unknown grant',
    access: 'grants:manage',
    expect: adminOnly(404),
    codes: { admin: 'not_found:grant' },
    request: () => ({ path: `/api/grants/${randomUUID()}` }),
  },

  { route: 'GET /api/audit', access: 'audit:read', expect: approverUp(200) },

  // Conversations: a user lists and opens only their own; another user's is 404, as a run is.
  { route: 'GET /api/sessions', access: 'runs:read:own', expect: signedIn(200) },
  {
    route: 'GET /api/sessions',
    what: "another user's list",
    access: 'runs:read:own',
    expect: { anonymous: 401, user: 403, approver: 200, admin: 200 },
    codes: { user: 'forbidden:runs:read:any' },
    request: (w) => ({ path: `/api/sessions?user=${encodeURIComponent(w.other.account!.id)}` }),
  },
  {
    route: 'GET /api/sessions/:id',
    what: "the user's own session",
    access: 'runs:read:own',
    expect: signedIn(200),
    request: (w) => ({ path: `/api/sessions/${w.userDone.sessionId}` }),
  },
  {
    route: 'GET /api/sessions/:id',
    what: "another user's session",
    access: 'runs:read:own',
    expect: { anonymous: 401, user: 404, approver: 200, admin: 200 },
    codes: { user: 'not_found:session' },
    request: (w) => ({ path: `/api/sessions/${w.otherDone.sessionId}` }),
  },
  { route: 'GET /api/runs', access: 'runs:read:own', expect: signedIn(200) },
  {
    route: 'GET /api/runs/:id',
    what: "the user's own run",
    access: 'runs:read:own',
    expect: signedIn(200),
    request: (w) => ({ path: `/api/runs/${w.userDone.runId}` }),
  },
  {
    route: 'GET /api/runs/:id',
    what: "another user's run",
    access: 'runs:read:own',
    expect: { anonymous: 401, user: 404, approver: 200, admin: 200 },
    codes: { user: 'not_found:run' },
    request: (w) => ({ path: `/api/runs/${w.otherDone.runId}` }),
  },
  {
    route: 'GET /api/runs/:id/events',
    what: "the user's own finished run",
    access: 'runs:read:own',
    expect: signedIn(200),
    request: (w) => ({ path: `/api/runs/${w.userDone.runId}/events` }),
  },
  {
    route: 'GET /api/runs/:id/events',
    what: "another user's finished run",
    access: 'runs:read:own',
    expect: { anonymous: 401, user: 404, approver: 200, admin: 200 },
    codes: { user: 'not_found:run' },
    request: (w) => ({ path: `/api/runs/${w.otherDone.runId}/events` }),
  },
  // Cancelling a finished run changes nothing, so the status is the access decision alone. A run
  // the caller may not see is 404 (docs/AUTH.md: its existence is not revealed), before any 403.
  {
    route: 'POST /api/runs/:id/cancel',
    what: "the user's own finished run",
    access: 'relays:decide:own',
    expect: signedIn(200),
    request: (w) => ({ path: `/api/runs/${w.userDone.runId}/cancel` }),
  },
  {
    route: 'POST /api/runs/:id/cancel',
    what: "another user's finished run",
    access: 'relays:decide:own',
    expect: { anonymous: 401, user: 404, approver: 200, admin: 200 },
    codes: { user: 'not_found:run' },
    request: (w) => ({ path: `/api/runs/${w.otherDone.runId}/cancel` }),
  },
  // Switching a waiting run to the mode it has changes nothing either.
  {
    route: 'POST /api/runs/:id/mode',
    what: "the user's own waiting run",
    access: 'relays:decide:own',
    expect: signedIn(200),
    request: (w) => ({ path: `/api/runs/${w.userWaiting.runId}/mode`, data: { mode: 'default' } }),
  },
  {
    route: 'POST /api/runs/:id/mode',
    what: "another user's waiting run",
    access: 'relays:decide:own',
    expect: { anonymous: 401, user: 404, approver: 200, admin: 200 },
    codes: { user: 'not_found:run' },
    request: (w) => ({ path: `/api/runs/${w.otherWaiting.runId}/mode`, data: { mode: 'default' } }),
  },

  {
    route: 'POST /api/chat',
    what: 'a new session',
    access: 'runs:start',
    expect: signedIn(200),
    request: () => ({
      path: '/api/chat',
      data: { messages: [{ role: 'user', content: 'hello from the access matrix' }] },
    }),
  },
  {
    route: 'POST /api/chat',
    what: "another user's session",
    access: 'runs:start',
    expect: { anonymous: 401, user: 403, approver: 403, admin: 200 },
    request: (w) => ({
      path: '/api/chat',
      data: {
        sessionId: w.otherSession.sessionId,
        messages: [{ role: 'user', content: 'hello from the access matrix' }],
      },
    }),
  },
  {
    route: 'POST /api/chat/relay/:id',
    what: "a relay of the caller's own run",
    access: 'relays:decide:own',
    expect: signedIn(200),
    request: async (w, name) => {
      const run = await freshRelay(w, name === 'anonymous' ? undefined : w.who[name], w.userWaiting);
      return { path: `/api/chat/relay/${run.relayId}`, data: { sessionId: run.sessionId, response: deny } };
    },
  },
  // The inline rule editor's live re-check changes nothing: only those who may edit the rules ask it.
  {
    route: 'POST /api/chat/relay/:id/check',
    what: "a relay of the user's waiting run",
    access: 'grants:manage',
    expect: adminOnly(200),
    request: (w) => ({
      path: `/api/chat/relay/${w.userWaiting.relayId}/check`,
      data: {
        sessionId: w.userWaiting.sessionId,
        rule: [{ action: 'allow', tool: 'bash', params: { command: 'echo *' } }],
      },
    }),
  },
  // The dialog's live check of an edited call changes nothing: whoever may decide the relay asks it.
  {
    route: 'POST /api/chat/relay/:id/edit-check',
    what: "a relay of the user's own waiting run",
    access: 'relays:decide:own',
    expect: signedIn(200),
    request: (w) => ({
      path: `/api/chat/relay/${w.userWaiting.relayId}/edit-check`,
      data: { sessionId: w.userWaiting.sessionId, params: { command: 'echo edited' } },
    }),
  },
  {
    route: 'POST /api/chat/relay/:id/edit-check',
    what: "a relay of another user's run",
    access: 'relays:decide:own',
    expect: { anonymous: 401, user: 403, approver: 200, admin: 200 },
    codes: { user: 'forbidden:relays:decide:any' },
    request: (w) => ({
      path: `/api/chat/relay/${w.otherWaiting.relayId}/edit-check`,
      data: { sessionId: w.otherWaiting.sessionId, params: { command: 'echo edited' } },
    }),
  },
  {
    // 403 here, not 404: whoever names the relay and its session knows it exists (docs/AUTH.md).
    route: 'POST /api/chat/relay/:id',
    what: "a relay of another user's run",
    access: 'relays:decide:own',
    expect: { anonymous: 401, user: 403, approver: 200, admin: 200 },
    codes: { user: 'forbidden:relays:decide:any' },
    request: async (w, name) => {
      const run = await freshRelay(w, name === 'anonymous' ? undefined : w.other, w.otherWaiting);
      return { path: `/api/chat/relay/${run.relayId}`, data: { sessionId: run.sessionId, response: deny } };
    },
  },
];

/** The route files this table must cover, as `METHOD /api/path`: kept in step with app/api by the spec. */
export const coveredRoutes = () => new Set(ROWS.map((row) => row.route));

export const rowTitle = (row: Row) => (row.what ? `${row.route} (${row.what})` : row.route);

/** The path of a row without a request builder: the route itself. */
export const defaultRequest = (row: Row): Req => ({ path: row.route.split(' ')[1]! });
