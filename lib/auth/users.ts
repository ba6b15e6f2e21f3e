// User management and sign-in, for the users page, the login routes and scripts. Inputs are
// validated with zod (a ZodError maps to 400); failures are the typed errors of errors.ts. Login
// does the same scrypt work whether or not the user exists, so timing does not reveal usernames.
import { z } from 'zod';
import { RoleSchema, type TokenPurpose } from '../contract';
import type { Queries } from '../db';
import type { UserRole, UserRow } from '../db/schema';
import {
  LastAdminError,
  RateLimitedError,
  UnauthorizedError,
  UserDisabledError,
  UserNotFoundError,
  UsernameTakenError,
} from './errors';
import {
  checkPasswordPolicy,
  DEFAULT_SCRYPT,
  hashPassword,
  verifyDummy,
  verifyPassword,
  type ScryptParams,
} from './password';
import type { LoginThrottle } from './rate-limit';
import { withAccountAudit, type AccountAudit } from './account-audit';
import { generateApiToken, generateLoginToken, hashToken } from './tokens';

export interface UserServiceDeps {
  q: Queries;
  /** Hash parameters for new passwords (tests pass cheap ones). */
  scrypt?: ScryptParams;
}

export { RoleSchema };

export const LOGIN_TOKEN_TTL_S = 24 * 60 * 60;

export const UsernameSchema = z
  .string()
  .trim()
  .min(2)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" and "-", starting with a letter or digit');
export const CreateUserSchema = z.object({
  username: UsernameSchema,
  displayName: z.string().trim().min(1).max(100).optional(),
  role: RoleSchema.default('user'),
  /** Optional: without one the user signs in with a link an admin issues (issueLoginToken). */
  password: z.string().optional(),
});
export type CreateUserInput = z.input<typeof CreateUserSchema>;

/** A user as the API shows it: never the hash. */
export interface PublicUser {
  id: string;
  username: string;
  displayName: string;
  role: UserRole;
  disabled: boolean;
  hasPassword: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    username: row.username,
    displayName: row.displayName,
    role: row.role,
    disabled: row.disabled,
    hasPassword: row.passwordHash !== null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function listUsers({ q }: Pick<UserServiceDeps, 'q'>): Promise<PublicUser[]> {
  return (await q.users.listUsers()).map(toPublicUser);
}

export async function createUser({
  q,
  scrypt = DEFAULT_SCRYPT,
  audit,
  ...input
}: UserServiceDeps & CreateUserInput & { audit?: AccountAudit<PublicUser> }): Promise<PublicUser> {
  const { username, displayName, role, password } = CreateUserSchema.parse(input);
  if (password !== undefined) checkPasswordPolicy(password);
  const passwordHash = password === undefined ? null : await hashPassword(password, scrypt);
  return withAccountAudit(q, audit, async (tx) => {
    const created = await tx.users.createUser({ username, displayName, role, passwordHash });
    if (!created.ok) throw new UsernameTakenError(username);
    return toPublicUser(created.user);
  });
}

async function update(
  q: Queries,
  input: Parameters<Queries['users']['updateUser']>[0],
  audit?: AccountAudit<PublicUser>,
): Promise<PublicUser> {
  return withAccountAudit(q, audit, async (tx) => {
    const result = await tx.users.updateUser(input);
    if (result.ok) return toPublicUser(result.user);
    throw result.reason === 'last_admin' ? new LastAdminError() : new UserNotFoundError(input.id);
  });
}

/** Refused with LastAdminError when it would leave no enabled admin. */
export async function changeRole({
  q,
  id,
  role,
}: Pick<UserServiceDeps, 'q'> & { id: string; role: UserRole }): Promise<PublicUser> {
  return update(q, { id, role: RoleSchema.parse(role) });
}

/** What a disable does besides the flag: every session ends, API tokens are revoked, unused sign-in links deleted (re-enabling brings none back). */
const disabling = (disabled: boolean) => ({
  disabled,
  ...(disabled ? { endSessions: true, revokeCredentials: true } : {}),
});

/**
 * Changes any of the role, the disabled flag and the display name in one transaction: refused
 * whole (LastAdminError, nothing changed) when it would leave no enabled admin. Disabling ends the
 * user's sessions, revokes their API tokens and deletes their unused sign-in links.
 */
export async function updateAccount({
  q,
  id,
  role,
  disabled,
  displayName,
  audit,
}: Pick<UserServiceDeps, 'q'> & {
  id: string;
  role?: UserRole;
  disabled?: boolean;
  displayName?: string;
  audit?: AccountAudit<PublicUser>;
}): Promise<PublicUser> {
  return update(
    q,
    {
      id,
      ...(role !== undefined ? { role: RoleSchema.parse(role) } : {}),
      ...(disabled !== undefined ? disabling(disabled) : {}),
      ...(displayName !== undefined ? { displayName } : {}),
    },
    audit,
  );
}

/** Disabling ends the user's sessions and revokes their API tokens and sign-in links; refused for the last enabled admin. */
export async function setDisabled({
  q,
  id,
  disabled,
}: Pick<UserServiceDeps, 'q'> & { id: string; disabled: boolean }): Promise<PublicUser> {
  return update(q, { id, ...disabling(disabled) });
}

/**
 * Sets a new password and ends the user's sessions, all but `keepSessionId` (an admin changing
 * their own password stays signed in where they did it).
 */
export async function resetPassword({
  q,
  scrypt = DEFAULT_SCRYPT,
  id,
  password,
  keepSessionId,
  audit,
}: UserServiceDeps & {
  id: string;
  password: string;
  keepSessionId?: string;
  audit?: AccountAudit<PublicUser>;
}): Promise<PublicUser> {
  checkPasswordPolicy(password);
  return update(
    q,
    {
      id,
      passwordHash: await hashPassword(password, scrypt),
      endSessions: keepSessionId ? { except: keepSessionId } : true,
    },
    audit,
  );
}

export interface LoginInput extends UserServiceDeps {
  username: string;
  password: string;
  /** When given, the attempt is counted first and refused with RateLimitedError past the limit. */
  throttle?: LoginThrottle;
  ip?: string;
}

/** The user for a correct username and password; UnauthorizedError otherwise (same error whether the user exists or not). */
export async function loginWithPassword({
  q,
  scrypt = DEFAULT_SCRYPT,
  username,
  password,
  throttle,
  ip = 'unknown',
}: LoginInput): Promise<UserRow> {
  if (throttle) {
    const verdict = throttle.attempt({ ip, username });
    if (!verdict.ok) throw new RateLimitedError(verdict.retryAfterS);
  }
  const wrong = () => new UnauthorizedError('unauthorized:credentials', 'Wrong username or password');
  const user = username.length <= 64 ? await q.users.getUserByUsername({ username: username.trim() }) : undefined;
  const matches = user?.passwordHash
    ? await verifyPassword(password, user.passwordHash)
    : await verifyDummy(password, scrypt);
  if (!user || !matches) throw wrong();
  // Only someone who knows the password learns that the account is disabled.
  if (user.disabled) throw new UnauthorizedError('unauthorized:disabled', 'This account is disabled');
  throttle?.succeeded({ username });
  return user;
}

/**
 * Issues a one-time sign-in link token for a user (the first admin's, or one an admin hands out).
 * Shown once. Only the newest link of a user is valid: their unused older ones are deleted.
 * UserNotFoundError for an unknown user, UserDisabledError for a disabled one.
 */
export async function issueLoginToken({
  q,
  userId,
  ttlS = LOGIN_TOKEN_TTL_S,
  audit,
}: Pick<UserServiceDeps, 'q'> & { userId: string; ttlS?: number; audit?: AccountAudit<{ expiresAt: Date }> }): Promise<{
  token: string;
  expiresAt: Date;
}> {
  const token = generateLoginToken();
  return withAccountAudit<{ token: string; expiresAt: Date }>(q, audit, async (tx) => {
    const row = await tx.tokens.createLoginToken({ tokenHash: hashToken(token), userId, ttlS });
    if (!row) throw (await tx.users.getUser({ id: userId })) ? new UserDisabledError() : new UserNotFoundError(userId);
    return { token, expiresAt: row.expiresAt };
  });
}

export interface ExchangeLoginTokenInput extends Pick<UserServiceDeps, 'q'> {
  token: string;
  /** When given, failed exchanges count against `ip` (the password login's address budget) and past the limit are refused with RateLimitedError. */
  throttle?: LoginThrottle;
  ip?: string;
}

/** The user a one-time token was issued to, consuming it; UnauthorizedError for a used, expired or unknown token or a disabled user. */
export async function exchangeLoginToken({
  q,
  token,
  throttle,
  ip = 'unknown',
}: ExchangeLoginTokenInput): Promise<UserRow> {
  if (throttle) {
    const verdict = throttle.attemptLink({ ip });
    if (!verdict.ok) throw new RateLimitedError(verdict.retryAfterS);
  }
  const invalid = () =>
    new UnauthorizedError('unauthorized:login_token', 'This sign-in link is invalid, expired or already used');
  if (token.length === 0 || token.length > 256) throw invalid();
  const consumed = await q.tokens.consumeLoginToken({ tokenHash: hashToken(token) });
  if (!consumed) throw invalid();
  const user = await q.users.getUser({ id: consumed.userId });
  if (!user || user.disabled) throw invalid();
  throttle?.linkSucceeded({ ip });
  return user;
}

/** A new API token for `userId`; the secret is returned once and only its hash is stored. */
export async function createApiToken({
  q,
  userId,
  name,
  expiresAt,
  purpose = 'full',
  audit,
}: Pick<UserServiceDeps, 'q'> & {
  userId: string;
  name: string;
  expiresAt?: Date;
  /** `agent`: a token that only asks the gate (docs/AUTH.md); `full` by default. */
  purpose?: TokenPurpose;
  audit?: AccountAudit<CreatedApiToken>;
}): Promise<CreatedApiToken & { token: string }> {
  const cleanName = z.string().trim().min(1).max(100).parse(name);
  const token = generateApiToken();
  return withAccountAudit<CreatedApiToken & { token: string }>(q, audit, async (tx) => {
    const row = await tx.tokens.createApiToken({
      userId,
      name: cleanName,
      tokenHash: hashToken(token),
      expiresAt: expiresAt ?? null,
      purpose,
    });
    if (!row) throw new Error('API token hash collision'); // 256 random bits: not in this universe
    return { token, id: row.id, name: row.name, expiresAt: row.expiresAt, purpose: row.purpose };
  });
}

interface CreatedApiToken {
  id: string;
  name: string;
  expiresAt: Date | null;
  purpose: TokenPurpose;
}

/** Revokes one live API token (of `userId`, when given); undefined when there is none. */
export async function revokeApiToken({
  q,
  id,
  userId,
  audit,
}: Pick<UserServiceDeps, 'q'> & {
  id: string;
  userId?: string;
  audit?: AccountAudit<{ name: string } | undefined>;
}): Promise<{ name: string } | undefined> {
  return withAccountAudit(q, audit, async (tx) => {
    const row = await tx.tokens.revokeApiToken({ id, ...(userId === undefined ? {} : { userId }) });
    return row ? { name: row.name } : undefined;
  });
}
