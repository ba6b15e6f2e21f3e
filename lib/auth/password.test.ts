import { describe, expect, it } from 'vitest';
import { PasswordPolicyError } from './errors';
import {
  checkPasswordPolicy,
  DEFAULT_SCRYPT,
  hashPassword,
  PASSWORD_MIN_LENGTH,
  verifyDummy,
  verifyPassword,
} from './password';

const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('password hashing', () => {
  it('encodes scrypt$N$r$p$salt$hash and verifies only the right password', async () => {
    const encoded = await hashPassword('correct horse battery', FAST);
    expect(encoded).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('correct horse battery', encoded)).toBe(true);
    expect(await verifyPassword('correct horse batterY', encoded)).toBe(false);
    expect(await verifyPassword('', encoded)).toBe(false);
  });

  it('salts: the same password hashes differently each time', async () => {
    expect(await hashPassword('same password!', FAST)).not.toBe(await hashPassword('same password!', FAST));
  });

  it('normalizes Unicode, so the composed and decomposed forms of a password are the same', async () => {
    const encoded = await hashPassword('caf\u00e9-password', FAST);
    expect(await verifyPassword('cafe\u0301-password', encoded)).toBe(true);
  });

  it('defaults to N=2^15, r=8, p=1 (and that works within maxmem)', async () => {
    expect(DEFAULT_SCRYPT).toEqual({ N: 32768, r: 8, p: 1 });
    const encoded = await hashPassword('a production-strength hash');
    expect(encoded.startsWith('scrypt$32768$8$1$')).toBe(true);
    expect(await verifyPassword('a production-strength hash', encoded)).toBe(true);
  });

  it.each([
    ['another scheme', 'bcrypt$2b$10$abc'],
    ['too few parts', 'scrypt$1024$8$1$c2FsdHNhbHQ='],
    ['N not a power of two', 'scrypt$1000$8$1$c2FsdHNhbHRzYWx0$' + Buffer.alloc(32).toString('base64')],
    ['N absurdly large', 'scrypt$4294967296$8$1$c2FsdHNhbHRzYWx0$' + Buffer.alloc(32).toString('base64')],
    ['salt too short', 'scrypt$1024$8$1$YQ==$' + Buffer.alloc(32).toString('base64')],
    ['empty', ''],
  ])('refuses a malformed encoding (%s) without throwing', async (_name, encoded) => {
    expect(await verifyPassword('whatever password', encoded)).toBe(false);
  });

  it('the dummy verification always fails', async () => {
    expect(await verifyDummy('anything at all', FAST)).toBe(false);
  });
});

describe('password policy', () => {
  it(`needs at least ${PASSWORD_MIN_LENGTH} characters`, () => {
    expect(() => checkPasswordPolicy('123456789')).toThrow(PasswordPolicyError);
    expect(() => checkPasswordPolicy('1234567890')).not.toThrow();
  });

  it('caps the length, so one login cannot be made arbitrarily expensive', () => {
    expect(() => checkPasswordPolicy('x'.repeat(1025))).toThrow(/at most/);
  });

  it('is a typed error with a code and the field', () => {
    try {
      checkPasswordPolicy('short');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'bad_request:password', status: 400, issues: [{ path: 'password' }] });
    }
  });
});
