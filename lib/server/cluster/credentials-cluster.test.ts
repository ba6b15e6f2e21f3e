// Two instances on one PostgreSQL, each with its own queries (and so its own cache of API tokens)
// and notify bus: a token revoked or a user disabled through A is refused by B at once, not only
// once B's cached rows are TOKEN_CACHE_TTL_MS old. Without the shared notices B would accept it.
// A session ended through A is refused by B at its next request (sessions are never cached), and
// B's stream watchers hear which user changed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { authenticate } from '../../auth/authenticate';
import { endSession, startSession } from '../../auth/sessions';
import { createApiToken, setDisabled } from '../../auth/users';
import { createQueries, openDatabase, type DatabaseHandle, type Queries } from '../../db';
import { createScratchDatabase, probePostgres } from '../../db/test-support/postgres';
import { shareCredentialChanges } from './cluster';
import { PgNotifyBus } from './pg-notify';

const postgres = await probePostgres();
if (!postgres.url && process.env.CI === 'true')
  throw new Error(`PostgreSQL is required under CI=true: ${postgres.reason}`);

const secret = 'credentials-cluster-test-secret-0123456789';

interface Instance {
  q: Queries;
  close(): Promise<void>;
}

describe.skipIf(!postgres.url)(
  `credential changes across instances${postgres.url ? '' : ` (no PostgreSQL: ${postgres.reason})`}`,
  () => {
    let url: string;
    let drop: () => Promise<void>;
    const open: Instance[] = [];

    beforeAll(async () => {
      const scratch = await createScratchDatabase(postgres.url!);
      url = scratch.url;
      drop = scratch.drop;
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((i) => i.close()));
    });
    afterAll(async () => {
      await drop?.();
    });

    async function instance(name: string, { share = true } = {}): Promise<Instance> {
      const handle: DatabaseHandle = await openDatabase({ databaseUrl: url });
      const q = createQueries(handle.db);
      const bus = new PgNotifyBus({
        connectionString: url,
        execute: (statement) => handle.db.execute(statement),
        applicationName: `test-${name}`,
      });
      await bus.ready();
      const stop = share ? await shareCredentialChanges(bus, q.credentials, `instance-${name}`) : () => undefined;
      const created = {
        q,
        async close() {
          stop();
          await bus.close();
          await handle.close();
        },
      };
      open.push(created);
      return created;
    }

    async function tokenOf(q: Queries, username: string) {
      const created = await q.users.createUser({ username, role: 'user' });
      if (!created.ok) throw new Error('not created');
      const { token } = await createApiToken({ q, userId: created.user.id, name: 'script' });
      return { userId: created.user.id, token, headers: new Headers({ authorization: `Bearer ${token}` }) };
    }

    /** Polls B for up to 2 s (far below the cache's 5 s) until it refuses the token. */
    async function refusedSoon(q: Queries, headers: Headers): Promise<boolean> {
      for (let i = 0; i < 40; i += 1) {
        if (!(await authenticate({ q, headers, secret }))) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return false;
    }

    it('a token revoked through A is refused by B within a notification, though B had it cached', async () => {
      const a = await instance('a');
      const b = await instance('b');
      const { userId, headers } = await tokenOf(a.q, 'revoked-user');
      expect(await authenticate({ q: b.q, headers, secret })).toMatchObject({ username: 'revoked-user', via: 'token' });
      const [row] = await a.q.tokens.listApiTokens({ userId });
      await a.q.tokens.revokeApiToken({ id: row!.id });
      expect(await refusedSoon(b.q, headers)).toBe(true);
    });

    it('a user disabled through A loses their token on B at once', async () => {
      const a = await instance('a');
      const b = await instance('b');
      const { userId, headers } = await tokenOf(a.q, 'disabled-user');
      expect(await authenticate({ q: b.q, headers, secret })).toBeDefined();
      await setDisabled({ q: a.q, id: userId, disabled: true });
      expect(await refusedSoon(b.q, headers)).toBe(true);
    });

    it('a session signed out through A is refused by B at its next request', async () => {
      const a = await instance('a', { share: false });
      const b = await instance('b', { share: false });
      const { userId } = await tokenOf(a.q, 'session-user');
      const { cookie } = await startSession({ q: a.q, userId, secret, secure: false });
      const headers = new Headers({ cookie: cookie.split(';')[0]! });
      expect(await authenticate({ q: b.q, headers, secret })).toMatchObject({
        username: 'session-user',
        via: 'session',
      });
      await endSession({ q: a.q, cookieHeader: headers.get('cookie'), secret });
      expect(await authenticate({ q: b.q, headers, secret })).toBeUndefined();
    });

    it("B's stream watchers hear which user changed through A", async () => {
      const a = await instance('a');
      const b = await instance('b');
      const { userId } = await tokenOf(a.q, 'watched-user');
      const heard = new Promise<string | undefined>((resolve) => b.q.credentials.watch(resolve));
      await setDisabled({ q: a.q, id: userId, disabled: true });
      expect(await heard).toBe(userId);
    });

    it('control: without the shared notices B keeps accepting its cached token after the revoke', async () => {
      const a = await instance('a', { share: false });
      const b = await instance('b', { share: false });
      const { userId, headers } = await tokenOf(a.q, 'unshared-user');
      expect(await authenticate({ q: b.q, headers, secret })).toBeDefined();
      const [row] = await a.q.tokens.listApiTokens({ userId });
      await a.q.tokens.revokeApiToken({ id: row!.id });
      expect(await authenticate({ q: b.q, headers, secret })).toBeDefined();
    });
  },
);
