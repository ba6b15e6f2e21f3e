// Changing one's own password (any role): the current password first, so a session left open is
// not enough to take the account over, and its wrong guesses count against the login throttle like
// sign-ins; then the new one. Every other session of the user ends; the one it was done from stays,
// so the person who changed it is not signed out.
import { PasswordPolicyError, RateLimitedError, UserNotFoundError } from './errors';
import { verifyPassword } from './password';
import type { LoginThrottle } from './rate-limit';
import type { AccountAudit } from './account-audit';
import { resetPassword, type PublicUser, type UserServiceDeps } from './users';

/** A wrong current password: a 400 with the message under `currentPassword`. */
export class WrongCurrentPasswordError extends PasswordPolicyError {
  constructor() {
    super('is not your current password');
    this.message = 'The current password is wrong';
    this.issues.splice(0, this.issues.length, {
      path: 'currentPassword',
      message: 'This is not your current password',
    });
    this.name = 'WrongCurrentPasswordError';
  }
}

export interface ChangeOwnPasswordInput extends UserServiceDeps {
  userId: string;
  currentPassword: string;
  password: string;
  /** The session the change is made from: it stays signed in. */
  keepSessionId?: string;
  throttle?: LoginThrottle;
  ip?: string;
  /** The audit row, written in the change's transaction. */
  audit?: AccountAudit<PublicUser>;
}

export async function changeOwnPassword({
  q,
  scrypt,
  userId,
  currentPassword,
  password,
  keepSessionId,
  throttle,
  ip = 'unknown',
  audit,
}: ChangeOwnPasswordInput): Promise<PublicUser> {
  const user = await q.users.getUser({ id: userId });
  if (!user) throw new UserNotFoundError(userId);
  if (throttle) {
    const verdict = throttle.attempt({ ip, username: user.username });
    if (!verdict.ok) throw new RateLimitedError(verdict.retryAfterS);
  }
  // A user who signed in with a link has no password yet: there is nothing to confirm.
  const matches = !user.passwordHash || (await verifyPassword(currentPassword, user.passwordHash));
  if (!matches) throw new WrongCurrentPasswordError();
  throttle?.succeeded({ username: user.username });
  return resetPassword({ q, scrypt, id: userId, password, keepSessionId, audit });
}
