// What a login tells a caller without an account's password, and
// whether the per-username sign-in limit holds against someone who controls many addresses.
// Scrypt derivations are counted (node:crypto's scrypt wrapped, not replaced): the work a login does
// is what its response time shows, so equal counts mean equal timing.
import { describe, expect, it, vi } from 'vitest';
import type { Queries, UserRow } from '../db';
import { hashPassword, PASSWORD_MAX_LENGTH } from './password';
import { LoginThrottle } from './rate-limit';
import { loginWithPassword } from './users';

const derivations = vi.hoisted(() => ({ count: 0 }));

vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const scrypt = ((...args: unknown[]) => {
    derivations.count += 1;
    return (actual.scrypt as (...a: unknown[]) => void)(...args);
  }) as typeof actual.scrypt;
  return { ...actual, default: { ...actual, scrypt }, scrypt };
});

const FAST = { N: 2 ** 10, r: 8, p: 1 };

describe('login timing does not tell which usernames exist', () => {
  it('a password longer than the policy allows costs the same scrypt work for an existing user as for an unknown one', async () => {
    const alice = {
      id: 'u-alice',
      username: 'alice',
      displayName: 'Alice',
      role: 'user',
      disabled: false,
      passwordHash: await hashPassword('correct horse battery', FAST),
    } as UserRow;
    // Only the lookup loginWithPassword makes; the rest of the login is the code under test.
    const q = {
      users: {
        getUserByUsername: async ({ username }: { username: string }) =>
          username.toLowerCase() === 'alice' ? alice : undefined,
      },
    } as unknown as Queries;
    const long = 'x'.repeat(PASSWORD_MAX_LENGTH + 1); // the login schema takes up to 4,096
    const work = async (username: string) => {
      const before = derivations.count;
      await expect(loginWithPassword({ q, scrypt: FAST, username, password: long })).rejects.toMatchObject({
        code: 'unauthorized:credentials',
      });
      return derivations.count - before;
    };
    await work('nobody'); // the dummy hash is made once per process
    const unknown = await work('nobody');
    expect(unknown).toBeGreaterThan(0);
    expect(await work('alice')).toBe(unknown);
  });
});

describe('the per-username sign-in limit', () => {
  it('is not reopened by a flood of other usernames pushing the refused one out of memory', () => {
    const throttle = new LoginThrottle();
    // Ten guesses at admin's password from ten addresses use up admin's window...
    for (let i = 0; i < 10; i++) expect(throttle.attempt({ ip: `198.51.100.${i}`, username: 'admin' }).ok).toBe(true);
    expect(throttle.attempt({ ip: '198.51.100.50', username: 'admin' }).ok).toBe(false);
    // ...then one address, refused by its own limit after ten, sends made-up usernames (each
    // answered 429 at once, without a password check: cheap)...
    for (let i = 0; i < 10_001; i++) throttle.attempt({ ip: '203.0.113.9', username: `junk${i}` });
    // ...and admin's window must still be closed for the next address.
    expect(throttle.attempt({ ip: '198.51.100.51', username: 'admin' }).ok).toBe(false);
  });

  it('keeps counting a username that is new while memory is full of others', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 10_000; i++) throttle.attempt({ ip: '203.0.113.9', username: `junk${i}` });
    for (let i = 0; i < 10; i++) expect(throttle.attempt({ ip: `198.51.100.${i}`, username: 'admin' }).ok).toBe(true);
    expect(throttle.attempt({ ip: '198.51.100.50', username: 'admin' }).ok).toBe(false);
  });
});
