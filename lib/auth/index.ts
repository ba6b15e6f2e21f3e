// Access control: users and roles, passwords, API and login tokens, the session cookie, the origin
// check, login throttling, and the first admin. No Next, no React; docs/AUTH.md has the model and
// how the server wires it in.
export * from './errors';
export {
  DEFAULT_SCRYPT,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  checkPasswordPolicy,
  hashPassword,
  verifyPassword,
  verifyDummy,
  type ScryptParams,
} from './password';
export { API_TOKEN_PREFIX, generateApiToken, generateLoginToken, generateSessionToken, hashToken } from './tokens';
export {
  SESSION_COOKIE,
  SESSION_TTL_S,
  clearSessionCookieHeader,
  createSessionValue,
  isSecureRequest,
  readCookie,
  sessionCookieHeader,
  verifySessionValue,
  type SessionClaims,
} from './session-cookie';
export {
  ACTIONS,
  PERMISSIONS,
  ROLES,
  assertCan,
  assertNotAgentToken,
  can,
  canDecideRelay,
  canSeeRun,
  isAgentToken,
  requireUser,
  type Action,
  type OwnedRun,
  type Principal,
  type Role,
} from './roles';
export { assertSameOrigin, checkOrigin, isSameOrigin, ownOrigins, type OriginCheck } from './origin';
export { LoginThrottle, RateLimiter, clientIp, type RateLimitResult, type RateLimiterOptions } from './rate-limit';
export { SESSION_SECRET_KEY, resolveSessionSecret } from './secret';
export { changeOwnPassword, WrongCurrentPasswordError, type ChangeOwnPasswordInput } from './own-password';
export { endSession, endUserSessions, sessionIdFromCookie, startSession, type StartSessionInput } from './sessions';
export { authenticate, cachedTokenUser, toAuthUser, type AuthUser, type AuthenticateInput } from './authenticate';
export {
  ADMIN_TOKEN_NAME,
  BOOTSTRAP_ADMIN_USERNAME,
  ensureAdmin,
  loginBaseUrl,
  type EnsureAdminInput,
  type EnsureAdminResult,
} from './bootstrap';
export { withAccountAudit, type AccountAudit, type AccountAuditKind } from './account-audit';
export {
  CreateUserSchema,
  LOGIN_TOKEN_TTL_S,
  RoleSchema,
  UsernameSchema,
  changeRole,
  createApiToken,
  createUser,
  exchangeLoginToken,
  issueLoginToken,
  listUsers,
  loginWithPassword,
  resetPassword,
  revokeApiToken,
  setDisabled,
  toPublicUser,
  updateAccount,
  type CreateUserInput,
  type ExchangeLoginTokenInput,
  type LoginInput,
  type PublicUser,
  type UserServiceDeps,
} from './users';
