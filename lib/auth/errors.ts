// Typed errors of access control. lib/server/http/errors.ts maps them by `code` (never instanceof):
// `unauthorized*` -> 401, `forbidden:*` -> 403, `conflict:*` -> 409, `rate_limited:login` -> 429,
// `bad_request:password` -> 400, `not_found:user` -> 404. Messages are safe to show.

/** No (valid) session or token, or wrong credentials. `code` is `unauthorized` or `unauthorized:<why>`. */
export class UnauthorizedError extends Error {
  readonly status = 401;
  constructor(
    readonly code:
      | 'unauthorized'
      | 'unauthorized:credentials'
      | 'unauthorized:login_token'
      | 'unauthorized:disabled' = 'unauthorized',
    message = 'Sign in first',
  ) {
    super(message);
    this.name = 'UnauthorizedError';
  }
}

/** Signed in, but the role does not allow `action` (or the request came from another origin). */
export class ForbiddenError extends Error {
  readonly status = 403;
  readonly code: `forbidden:${string}`;
  constructor(
    readonly action: string,
    message = `You are not allowed to do this (${action})`,
  ) {
    super(message);
    this.code = `forbidden:${action}`;
    this.name = 'ForbiddenError';
  }
}

/** Too many login attempts for this address or username. */
export class RateLimitedError extends Error {
  readonly status = 429;
  readonly code = 'rate_limited:login';
  constructor(readonly retryAfterS: number) {
    super(`Too many sign-in attempts; try again in ${retryAfterS} s`);
    this.name = 'RateLimitedError';
  }
}

/** A password that the policy refuses (too short or too long). */
export class PasswordPolicyError extends Error {
  readonly status = 400;
  readonly code = 'bad_request:password';
  readonly issues: { path: string; message: string }[];
  constructor(message: string) {
    super(`Invalid password: ${message}`);
    this.issues = [{ path: 'password', message }];
    this.name = 'PasswordPolicyError';
  }
}

export class UsernameTakenError extends Error {
  readonly status = 409;
  readonly code = 'conflict:username';
  constructor(readonly username: string) {
    super(`The username "${username}" is taken`);
    this.name = 'UsernameTakenError';
  }
}

/** The change would leave no enabled admin. */
export class LastAdminError extends Error {
  readonly status = 409;
  readonly code = 'conflict:last_admin';
  constructor() {
    super('At least one enabled admin must remain');
    this.name = 'LastAdminError';
  }
}

/** The user is disabled: enable the account before handing out a way to sign in. */
export class UserDisabledError extends Error {
  readonly status = 409;
  readonly code = 'conflict:user_disabled';
  constructor(message = 'This user is disabled: enable the account first') {
    super(message);
    this.name = 'UserDisabledError';
  }
}

export class UserNotFoundError extends Error {
  readonly status = 404;
  readonly code = 'not_found:user';
  constructor(readonly userId: string) {
    super('No such user');
    this.name = 'UserNotFoundError';
  }
}
