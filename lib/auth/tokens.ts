// Secrets handed to people, browsers and scripts: API tokens (`gh_` + 32 random bytes, base64url),
// one-time login tokens and session tokens (in the signed cookie). Only their sha256 is stored; a lookup hashes what was presented. The
// tokens carry 256 bits of entropy, so a plain (unsalted, fast) hash is enough.
import { createHash, randomBytes } from 'node:crypto';

export const API_TOKEN_PREFIX = 'gh_';

export function generateApiToken(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function generateLoginToken(): string {
  return randomBytes(32).toString('base64url');
}

export function generateSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored form of any token: lowercase sha256 hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
