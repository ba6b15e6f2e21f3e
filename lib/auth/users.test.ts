import { expect, it } from 'vitest';
import { ZodError } from 'zod';
import { emptyAuthTablesBeforeEach } from '../db/test-support/auth-tables';
import { describeStores } from '../db/test-support/stores';
import { LoginThrottle } from './rate-limit';
import {
  changeRole,
  createApiToken,
  createUser,
  exchangeLoginToken,
  issueLoginToken,
  listUsers,
  loginWithPassword,
  resetPassword,
  setDisabled,
  updateAccount,
} from './users';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const PASSWORD = 'correct horse battery';

describeStores('user service', (store) => {
  emptyAuthTablesBeforeEach(store);

  it('creates a user without exposing the hash', async () => {
    const { q } = store();
    const user = await createUser({ q, scrypt: FAST, username: ' Alice ', role: 'approver', password: PASSWORD });
    expect(user).toMatchObject({
      username: 'Alice',
      displayName: 'Alice',
      role: 'approver',
      disabled: false,
      hasPassword: true,
    });
    expect(user).not.toHaveProperty('passwordHash');
    expect((await q.users.getUser({ id: user.id }))?.passwordHash).toMatch(/^scrypt\$1024\$/);
    expect((await createUser({ q, username: 'nopass' })).role).toBe('user');
    expect((await listUsers({ q })).map((u) => [u.username, u.hasPassword])).toEqual([
      ['Alice', true],
      ['nopass', false],
    ]);
  });

  it('validates: username shape, role, password policy; a taken name is conflict:username', async () => {
    const { q } = store();
    await expect(createUser({ q, username: 'a b', role: 'user' })).rejects.toBeInstanceOf(ZodError);
    await expect(createUser({ q, username: 'x', role: 'user' })).rejects.toBeInstanceOf(ZodError);
    await expect(createUser({ q, username: 'bob', role: 'root' as never })).rejects.toBeInstanceOf(ZodError);
    await expect(createUser({ q, username: 'bob', role: 'user', password: 'short' })).rejects.toMatchObject({
      code: 'bad_request:password',
    });
    await createUser({ q, username: 'bob', role: 'user' });
    await expect(createUser({ q, username: 'BOB', role: 'user' })).rejects.toMatchObject({
      code: 'conflict:username',
      status: 409,
    });
  });

  it('changes roles but never leaves zero enabled admins', async () => {
    const { q } = store();
    const admin = await createUser({ q, username: 'root', role: 'admin' });
    const bob = await createUser({ q, username: 'bob', role: 'user' });
    await expect(changeRole({ q, id: admin.id, role: 'user' })).rejects.toMatchObject({ code: 'conflict:last_admin' });
    await expect(setDisabled({ q, id: admin.id, disabled: true })).rejects.toMatchObject({
      code: 'conflict:last_admin',
    });
    expect((await changeRole({ q, id: bob.id, role: 'admin' })).role).toBe('admin');
    expect((await changeRole({ q, id: admin.id, role: 'approver' })).role).toBe('approver');
    await expect(changeRole({ q, id: 'missing', role: 'user' })).rejects.toMatchObject({ code: 'not_found:user' });
  });

  it('changes role, disabled and display name together, or nothing of them when it would leave no enabled admin', async () => {
    const { q } = store();
    const admin = await createUser({ q, username: 'root', role: 'admin' });
    await expect(updateAccount({ q, id: admin.id, displayName: 'Renamed', role: 'user' })).rejects.toMatchObject({
      code: 'conflict:last_admin',
    });
    await expect(updateAccount({ q, id: admin.id, displayName: 'Renamed', disabled: true })).rejects.toMatchObject({
      code: 'conflict:last_admin',
    });
    expect(await q.users.getUser({ id: admin.id })).toMatchObject({
      displayName: admin.displayName,
      role: 'admin',
      disabled: false,
    });
    const bob = await createUser({ q, username: 'bob', role: 'user' });
    await q.sessions.createSession({ id: 'bobs-session', userId: bob.id, ttlS: 60 });
    expect(
      await updateAccount({ q, id: bob.id, displayName: 'Robert', role: 'approver', disabled: true }),
    ).toMatchObject({ displayName: 'Robert', role: 'approver', disabled: true });
    // Disabling ended bob's sessions.
    expect(await q.sessions.findSession({ id: 'bobs-session' })).toBeUndefined();
    await expect(updateAccount({ q, id: 'missing', displayName: 'x' })).rejects.toMatchObject({
      code: 'not_found:user',
    });
  });

  it("logs in with the right password only, whatever the username's case", async () => {
    const { q } = store();
    const created = await createUser({ q, scrypt: FAST, username: 'alice', role: 'user', password: PASSWORD });
    expect((await loginWithPassword({ q, scrypt: FAST, username: 'ALICE', password: PASSWORD })).id).toBe(created.id);
    await expect(
      loginWithPassword({ q, scrypt: FAST, username: 'alice', password: 'wrong password' }),
    ).rejects.toMatchObject({ code: 'unauthorized:credentials' });
  });

  it('an unknown user, a user without password and a wrong password fail alike', async () => {
    const { q } = store();
    await createUser({ q, scrypt: FAST, username: 'alice', role: 'user', password: PASSWORD });
    await createUser({ q, username: 'linkonly', role: 'user' });
    const errors = await Promise.all(
      [
        { username: 'ghost', password: PASSWORD },
        { username: 'linkonly', password: PASSWORD },
        { username: 'alice', password: 'not the password' },
        { username: 'x'.repeat(500), password: PASSWORD },
      ].map((input) =>
        loginWithPassword({ q, scrypt: FAST, ...input }).catch((e: Error) => ({
          code: (e as { code?: string }).code,
          message: e.message,
        })),
      ),
    );
    expect(new Set(errors.map((e) => JSON.stringify(e))).size).toBe(1);
    expect(errors[0]).toEqual({ code: 'unauthorized:credentials', message: 'Wrong username or password' });
  });

  it('a disabled user is told so only after the right password', async () => {
    const { q } = store();
    await createUser({ q, username: 'root', role: 'admin' });
    const alice = await createUser({ q, scrypt: FAST, username: 'alice', role: 'user', password: PASSWORD });
    await setDisabled({ q, id: alice.id, disabled: true });
    await expect(loginWithPassword({ q, scrypt: FAST, username: 'alice', password: PASSWORD })).rejects.toMatchObject({
      code: 'unauthorized:disabled',
    });
    await expect(
      loginWithPassword({ q, scrypt: FAST, username: 'alice', password: 'wrong password' }),
    ).rejects.toMatchObject({ code: 'unauthorized:credentials' });
  });

  it('rate limits login attempts before checking the password', async () => {
    const { q } = store();
    await createUser({ q, scrypt: FAST, username: 'alice', role: 'user', password: PASSWORD });
    const throttle = new LoginThrottle({ limit: 3 });
    for (let i = 0; i < 3; i++) {
      await expect(
        loginWithPassword({
          q,
          scrypt: FAST,
          username: 'alice',
          password: 'guess number ' + i,
          throttle,
          ip: '1.2.3.4',
        }),
      ).rejects.toMatchObject({ code: 'unauthorized:credentials' });
    }
    await expect(
      loginWithPassword({ q, scrypt: FAST, username: 'alice', password: PASSWORD, throttle, ip: '5.6.7.8' }),
    ).rejects.toMatchObject({ code: 'rate_limited:login', status: 429 });
  });

  it('resetting a password changes it and ends sessions', async () => {
    const { q } = store();
    const alice = await createUser({ q, scrypt: FAST, username: 'alice', role: 'user', password: PASSWORD });
    await expect(resetPassword({ q, scrypt: FAST, id: alice.id, password: 'short' })).rejects.toMatchObject({
      code: 'bad_request:password',
    });
    await q.sessions.createSession({ id: 'alices-session', userId: alice.id, ttlS: 60 });
    await resetPassword({ q, scrypt: FAST, id: alice.id, password: 'the new password' });
    await expect(loginWithPassword({ q, scrypt: FAST, username: 'alice', password: PASSWORD })).rejects.toMatchObject({
      code: 'unauthorized:credentials',
    });
    expect((await loginWithPassword({ q, scrypt: FAST, username: 'alice', password: 'the new password' })).id).toBe(
      alice.id,
    );
    expect(await q.sessions.findSession({ id: 'alices-session' })).toBeUndefined();
  });

  it('a one-time login token works once, for an enabled user, before it expires', async () => {
    const { q } = store();
    await createUser({ q, username: 'root', role: 'admin' });
    const alice = await createUser({ q, username: 'alice', role: 'user' });
    const { token, expiresAt } = await issueLoginToken({ q, userId: alice.id });
    expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 23 * 3600 * 1000);
    expect((await exchangeLoginToken({ q, token })).id).toBe(alice.id);
    await expect(exchangeLoginToken({ q, token })).rejects.toMatchObject({ code: 'unauthorized:login_token' });
    const expired = await issueLoginToken({ q, userId: alice.id, ttlS: -1 });
    await expect(exchangeLoginToken({ q, token: expired.token })).rejects.toMatchObject({
      code: 'unauthorized:login_token',
    });
    const forDisabled = await issueLoginToken({ q, userId: alice.id });
    await setDisabled({ q, id: alice.id, disabled: true });
    await expect(exchangeLoginToken({ q, token: forDisabled.token })).rejects.toMatchObject({
      code: 'unauthorized:login_token',
    });
    await expect(exchangeLoginToken({ q, token: '' })).rejects.toMatchObject({ code: 'unauthorized:login_token' });
    // Disabling deleted the link: re-enabling does not bring it back.
    await setDisabled({ q, id: alice.id, disabled: false });
    await expect(exchangeLoginToken({ q, token: forDisabled.token })).rejects.toMatchObject({
      code: 'unauthorized:login_token',
    });
  });

  it('only the newest one-time link of a user signs in; none is issued for a disabled or unknown user', async () => {
    const { q } = store();
    await createUser({ q, username: 'root', role: 'admin' });
    const alice = await createUser({ q, username: 'alice', role: 'user' });
    const older = await issueLoginToken({ q, userId: alice.id });
    const newer = await issueLoginToken({ q, userId: alice.id });
    await expect(exchangeLoginToken({ q, token: older.token })).rejects.toMatchObject({
      code: 'unauthorized:login_token',
    });
    expect((await exchangeLoginToken({ q, token: newer.token })).id).toBe(alice.id);
    await setDisabled({ q, id: alice.id, disabled: true });
    await expect(issueLoginToken({ q, userId: alice.id })).rejects.toMatchObject({ code: 'conflict:user_disabled' });
    await expect(issueLoginToken({ q, userId: 'no-such-user' })).rejects.toMatchObject({ code: 'not_found:user' });
  });

  it('rate limits failed one-time link attempts per address, before the token is looked up', async () => {
    const { q } = store();
    await createUser({ q, username: 'root', role: 'admin' });
    const alice = await createUser({ q, username: 'alice', role: 'user' });
    const throttle = new LoginThrottle({ limit: 3 });
    // Links that work are not counted: more successes than the limit from one address.
    for (let i = 0; i < 4; i++) {
      const { token } = await issueLoginToken({ q, userId: alice.id });
      expect((await exchangeLoginToken({ q, token, throttle, ip: '1.2.3.4' })).id).toBe(alice.id);
    }
    for (let i = 0; i < 3; i++) {
      await expect(exchangeLoginToken({ q, token: `guess-${i}`, throttle, ip: '1.2.3.4' })).rejects.toMatchObject({
        code: 'unauthorized:login_token',
      });
    }
    const valid = await issueLoginToken({ q, userId: alice.id });
    await expect(exchangeLoginToken({ q, token: valid.token, throttle, ip: '1.2.3.4' })).rejects.toMatchObject({
      code: 'rate_limited:login',
      status: 429,
    });
    // The refused attempt did not use the link up; the same budget holds for passwords.
    expect((await exchangeLoginToken({ q, token: valid.token, throttle, ip: '5.6.7.8' })).id).toBe(alice.id);
    await expect(
      loginWithPassword({ q, scrypt: FAST, username: 'root', password: PASSWORD, throttle, ip: '1.2.3.4' }),
    ).rejects.toMatchObject({ code: 'rate_limited:login' });
  });

  it('API tokens are shown once and stored only as a hash', async () => {
    const { q } = store();
    const alice = await createUser({ q, username: 'alice', role: 'user' });
    const created = await createApiToken({ q, userId: alice.id, name: ' laptop ' });
    expect(created).toMatchObject({ name: 'laptop', expiresAt: null });
    expect(created.token).toMatch(/^gh_/);
    const [row] = await q.tokens.listApiTokens({ userId: alice.id });
    expect(JSON.stringify(row)).not.toContain(created.token);
    await expect(createApiToken({ q, userId: alice.id, name: '  ' })).rejects.toBeInstanceOf(ZodError);
  });
});
