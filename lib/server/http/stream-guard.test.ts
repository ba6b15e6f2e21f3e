import { expect, it, vi } from 'vitest';
import { startSession } from '../../auth/sessions';
import { createApiToken, setDisabled, updateAccount } from '../../auth/users';
import { emptyAuthTablesBeforeEach } from '../../db/test-support/auth-tables';
import { describeStores, type StoreContext } from '../../db/test-support/stores';
import { authenticate } from '../../auth/authenticate';
import { runStreamGuard } from './stream-guard';

const sessionSecret = 'stream-guard-test-secret-0123456789';

async function aUser({ q }: StoreContext, username: string, role: 'user' | 'approver' | 'admin' = 'user') {
  const created = await q.users.createUser({ username, role });
  if (!created.ok) throw new Error('not created');
  return created.user;
}

describeStores('run stream guard', (store) => {
  emptyAuthTablesBeforeEach(store);

  async function opened(headers: Headers, run: { owner: string | null }) {
    const { q } = store();
    const user = (await authenticate({ q, headers, secret: sessionSecret }))!;
    return runStreamGuard({ rt: { q, sessionSecret }, headers, user, run });
  }

  it("a session's stream passes until the session ends", async () => {
    const { q } = store();
    const alice = await aUser(store(), 'alice');
    const { cookie } = await startSession({ q, userId: alice.id, secret: sessionSecret, secure: false });
    const headers = new Headers({ cookie: cookie.split(';')[0]! });
    const guard = await opened(headers, { owner: alice.id });
    expect(await guard.check()).toBe(true);
    await q.sessions.deleteUserSessions({ userId: alice.id });
    expect(await guard.check()).toBe(false);
  });

  it("a token's stream passes until the token is revoked or its user disabled", async () => {
    const { q } = store();
    const alice = await aUser(store(), 'alice');
    const bob = await aUser(store(), 'bob');
    const tokens = [
      await createApiToken({ q, userId: alice.id, name: 'a' }),
      await createApiToken({ q, userId: bob.id, name: 'b' }),
    ];
    const [aliceGuard, bobGuard] = await Promise.all(
      tokens.map((t, i) =>
        opened(new Headers({ authorization: `Bearer ${t.token}` }), { owner: [alice.id, bob.id][i]! }),
      ),
    );
    expect(await aliceGuard!.check()).toBe(true);
    await q.tokens.revokeApiToken({ id: tokens[0]!.id });
    expect(await aliceGuard!.check()).toBe(false);
    expect(await bobGuard!.check()).toBe(true);
    await setDisabled({ q, id: bob.id, disabled: true });
    expect(await bobGuard!.check()).toBe(false);
  });

  it("an approver demoted to user loses the stream of someone else's run, not of their own", async () => {
    const { q } = store();
    await aUser(store(), 'root', 'admin');
    const carol = await aUser(store(), 'carol', 'approver');
    const { token } = await createApiToken({ q, userId: carol.id, name: 'c' });
    const headers = new Headers({ authorization: `Bearer ${token}` });
    const others = await opened(headers, { owner: 'someone-else' });
    const own = await opened(headers, { owner: carol.id });
    expect(await others.check()).toBe(true);
    await updateAccount({ q, id: carol.id, role: 'user' });
    expect(await others.check()).toBe(false);
    expect(await own.check()).toBe(true);
  });

  it('hears changes of its own user (and unnamed ones), not of others', async () => {
    const { q } = store();
    const alice = await aUser(store(), 'alice');
    const bob = await aUser(store(), 'bob');
    const { token } = await createApiToken({ q, userId: alice.id, name: 'a' });
    const guard = await opened(new Headers({ authorization: `Bearer ${token}` }), { owner: alice.id });
    const listener = vi.fn();
    const stop = guard.watch(listener);
    await q.users.updateUser({ id: bob.id, displayName: 'Bob' });
    expect(listener).not.toHaveBeenCalled();
    await q.users.updateUser({ id: alice.id, displayName: 'Alice' });
    expect(listener).toHaveBeenCalledTimes(1);
    q.credentials.changedElsewhere();
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    await q.users.updateUser({ id: alice.id, displayName: 'Alice A.' });
    expect(listener).toHaveBeenCalledTimes(2);
  });
});
