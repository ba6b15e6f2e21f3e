// Password hashing with scrypt (node:crypto), encoded as `scrypt$N$r$p$saltB64$hashB64` so the
// parameters can be raised later without invalidating stored hashes. Verification compares in
// constant time and refuses malformed or absurd encodings instead of throwing.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { PasswordPolicyError } from './errors';

export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** 2^15 x 8 x 128 B = 32 MiB and roughly 50-100 ms per hash. Tests pass weaker params explicitly. */
export const DEFAULT_SCRYPT: ScryptParams = { N: 2 ** 15, r: 8, p: 1 };
export const PASSWORD_MIN_LENGTH = 10;
/** Long enough for any passphrase; bounds the work an attacker can make one login cost. */
export const PASSWORD_MAX_LENGTH = 1024;

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
// A stored hash is ours, but bound it anyway: a corrupted row must not make one login eat gigabytes.
const MAX_N = 2 ** 20;

function derive(password: string, salt: Buffer, { N, r, p }: ScryptParams, keyLength: number): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes (plus a little); node's default maxmem (32 MiB) is just too small for N=2^15.
  const maxmem = 256 * N * r + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, keyLength, { N, r, p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Throws PasswordPolicyError when the password is too short or too long. */
export function checkPasswordPolicy(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH)
    throw new PasswordPolicyError(`must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH)
    throw new PasswordPolicyError(`must be at most ${PASSWORD_MAX_LENGTH} characters`);
}

/** Hashes without checking the policy (callers that accept user input call checkPasswordPolicy first). */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, params, KEY_LENGTH);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
}

function parse(encoded: string): { params: ScryptParams; salt: Buffer; key: Buffer } | undefined {
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return undefined;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const isPowerOfTwo = Number.isInteger(N) && N > 1 && N <= MAX_N && (N & (N - 1)) === 0;
  if (!isPowerOfTwo || !Number.isInteger(r) || r < 1 || r > 32 || !Number.isInteger(p) || p < 1 || p > 16)
    return undefined;
  const salt = Buffer.from(parts[4]!, 'base64');
  const key = Buffer.from(parts[5]!, 'base64');
  if (salt.length < 8 || key.length < 16 || key.length > 64) return undefined;
  return { params: { N, r, p }, salt, key };
}

/** True when `password` matches `encoded`; false for a mismatch or an encoding this module did not write. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const parsed = parse(encoded);
  if (!parsed) return false;
  // An over-long password never matches, but it costs the same derivation as any other: answering
  // it at once would tell a caller that the username exists (unknown users pay verifyDummy's).
  const tooLong = password.length > PASSWORD_MAX_LENGTH;
  const key = await derive(password.slice(0, PASSWORD_MAX_LENGTH), parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(key, parsed.key) && !tooLong;
}

const dummyHashes = new Map<string, Promise<string>>();

/**
 * Spends about as long as verifying a real password, for logins of unknown users or users without
 * a password, so response times do not tell which usernames exist. Always false.
 */
export async function verifyDummy(password: string, params: ScryptParams = DEFAULT_SCRYPT): Promise<false> {
  const key = `${params.N}/${params.r}/${params.p}`;
  let dummy = dummyHashes.get(key);
  if (!dummy) dummyHashes.set(key, (dummy = hashPassword('gatehouse-dummy-password', params)));
  await verifyPassword(password.slice(0, PASSWORD_MAX_LENGTH), await dummy);
  return false;
}
