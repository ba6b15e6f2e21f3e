// The embedded default, like Jupyter: on a start with no users, create the admin `admin` (no
// password) and print a one-time sign-in link, unless GATEHOUSE_ADMIN_TOKEN is set, in which case
// that value becomes the admin's API token and no secret is printed. Idempotent and safe when two
// processes start at once: the username and token hash are unique, conflicts are no-ops.
//
// On later starts: GATEHOUSE_ADMIN_TOKEN is attached to the oldest enabled admin when no token with
// its hash exists (a revoked one stays revoked); without it, while no enabled admin has a password,
// a fresh one-time link is printed on every start so a lost link never locks the admin out (whoever
// reads the server's console controls the server anyway).
import type { Queries, UserRow } from '../db';
import { hashToken } from './tokens';
import { issueLoginToken, LOGIN_TOKEN_TTL_S } from './users';

export const BOOTSTRAP_ADMIN_USERNAME = 'admin';
export const ADMIN_TOKEN_NAME = 'GATEHOUSE_ADMIN_TOKEN';

export interface EnsureAdminInput {
  q: Queries;
  /** GATEHOUSE_ADMIN_TOKEN. */
  adminToken?: string;
  /** Where the printed link points: `baseUrl`, else http://<host>:<port> (wildcard hosts become 127.0.0.1). */
  host?: string;
  port?: number | string;
  baseUrl?: string;
  log?: (line: string) => void;
  loginTtlS?: number;
}

export interface EnsureAdminResult {
  /** This call created the admin user. */
  created: boolean;
  admin?: UserRow;
  /** Set when a one-time link was issued (and logged). */
  loginUrl?: string;
  /** GATEHOUSE_ADMIN_TOKEN was stored by this call. */
  tokenAttached: boolean;
}

export function loginBaseUrl({
  host = '127.0.0.1',
  port = 3000,
  baseUrl,
}: Pick<EnsureAdminInput, 'host' | 'port' | 'baseUrl'>): string {
  if (baseUrl) return baseUrl.replace(/\/+$/, '');
  const name = ['0.0.0.0', '::', '[::]', ''].includes(host) ? '127.0.0.1' : host;
  return `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`;
}

export async function ensureAdmin({
  q,
  adminToken,
  host,
  port,
  baseUrl,
  log = console.log,
  loginTtlS = LOGIN_TOKEN_TTL_S,
}: EnsureAdminInput): Promise<EnsureAdminResult> {
  let created = false;
  if ((await q.users.countUsers()) === 0) {
    // A concurrent start may win this insert; then its admin is ours too.
    const result = await q.users.createUser({
      username: BOOTSTRAP_ADMIN_USERNAME,
      displayName: 'Administrator',
      role: 'admin',
    });
    created = result.ok;
    if (created) log(`[gatehouse] No users yet: created the admin user "${BOOTSTRAP_ADMIN_USERNAME}".`);
  }
  const admin = await q.users.firstEnabledAdmin();
  if (!admin) {
    log('[gatehouse] Warning: there is no enabled admin; nobody can manage users or the policy.');
    return { created, tokenAttached: false };
  }

  if (adminToken) {
    const row = await q.tokens.createApiToken({
      userId: admin.id,
      name: ADMIN_TOKEN_NAME,
      tokenHash: hashToken(adminToken),
    });
    if (row)
      log(`[gatehouse] GATEHOUSE_ADMIN_TOKEN is now an API token of "${admin.username}" (Authorization: Bearer ...).`);
    return { created, admin, tokenAttached: row !== undefined };
  }

  const admins = await q.users.listUsers({ role: 'admin', includeDisabled: false });
  if (!created && admins.some((a) => a.passwordHash !== null)) return { created, admin, tokenAttached: false };
  await q.tokens.deleteStaleLoginTokens();
  const { token } = await issueLoginToken({ q, userId: admin.id, ttlS: loginTtlS });
  const loginUrl = `${loginBaseUrl({ host, port, baseUrl })}/login?token=${token}`;
  const hours = Math.round(loginTtlS / 3600);
  log(
    `[gatehouse] Sign in as "${admin.username}" with this one-time link (valid ${hours > 0 ? `${hours} h` : `${loginTtlS} s`}), then set a password:`,
  );
  log(`[gatehouse]     ${loginUrl}`);
  return { created, admin, loginUrl, tokenAttached: false };
}
