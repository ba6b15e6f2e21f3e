import { expect, it } from 'vitest';
import { emptyAuthTablesBeforeEach } from '../db/test-support/auth-tables';
import { describeStores } from '../db/test-support/stores';
import { authenticate } from './authenticate';
import { changeOwnPassword, WrongCurrentPasswordError } from './own-password';
import { hashPassword, verifyPassword } from './password';
import { LoginThrottle } from './rate-limit';
import { startSession } from './sessions';

const secret = 'own-password-test-secret-0123456789';
const FAST = { N: 2 ** 10, r: 8, p: 1 };

describeStores("changing one's own password", (store) => {
  emptyAuthTablesBeforeEach(store);

  async function aliceWithTwoSessions() {
    const { q } = store();
    const created = await q.users.createUser({
      username: 'alice',
      role: 'user',
      passwordHash: await hashPassword('the old password', FAST),
    });
    if (!created.ok) throw new Error('not created');
    const session = async () => {
      const { cookie, sessionId } = await startSession({ q, userId: created.user.id, secret, secure: false });
      return { headers: new Headers({ cookie: cookie.split(';')[0]! }), sessionId };
    };
    return { q, alice: created.user, here: await session(), elsewhere: await session() };
  }

  it('keeps the session it was changed from and ends the others', async () => {
    const { q, alice, here, elsewhere } = await aliceWithTwoSessions();
    await changeOwnPassword({
      q,
      scrypt: FAST,
      userId: alice.id,
      currentPassword: 'the old password',
      password: 'a brand new password',
      keepSessionId: here.sessionId,
    });
    expect(await authenticate({ q, headers: here.headers, secret })).toMatchObject({
      id: alice.id,
      sessionId: here.sessionId,
    });
    expect(await authenticate({ q, headers: elsewhere.headers, secret })).toBeUndefined();
    const row = await q.users.getUser({ id: alice.id });
    expect(await verifyPassword('a brand new password', row!.passwordHash!)).toBe(true);
  });

  it('a wrong current password changes nothing and names the field', async () => {
    const { q, alice, here, elsewhere } = await aliceWithTwoSessions();
    const attempt = changeOwnPassword({
      q,
      scrypt: FAST,
      userId: alice.id,
      currentPassword: 'a guess',
      password: 'a brand new password',
      keepSessionId: here.sessionId,
    });
    await expect(attempt).rejects.toBeInstanceOf(WrongCurrentPasswordError);
    await expect(attempt).rejects.toMatchObject({
      code: 'bad_request:password',
      issues: [{ path: 'currentPassword' }],
    });
    expect(await authenticate({ q, headers: elsewhere.headers, secret })).toBeDefined();
    const row = await q.users.getUser({ id: alice.id });
    expect(await verifyPassword('the old password', row!.passwordHash!)).toBe(true);
  });

  it('wrong current passwords count against the login throttle', async () => {
    const { q, alice } = await aliceWithTwoSessions();
    const throttle = new LoginThrottle({ limit: 2, windowMs: 60_000 });
    const guess = () =>
      changeOwnPassword({
        q,
        scrypt: FAST,
        userId: alice.id,
        currentPassword: 'a guess',
        password: 'a brand new password',
        throttle,
        ip: '203.0.113.1',
      });
    await expect(guess()).rejects.toBeInstanceOf(WrongCurrentPasswordError);
    await expect(guess()).rejects.toBeInstanceOf(WrongCurrentPasswordError);
    await expect(guess()).rejects.toMatchObject({ code: 'rate_limited:login' });
  });

  it('the new password must meet the policy', async () => {
    const { q, alice } = await aliceWithTwoSessions();
    await expect(
      changeOwnPassword({ q, scrypt: FAST, userId: alice.id, currentPassword: 'the old password', password: 'short' }),
    ).rejects.toMatchObject({ issues: [{ path: 'password' }] });
  });
});
