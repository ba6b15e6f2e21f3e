// Access control over HTTP, on the shared e2e server: the role × route matrix (every API route,
// anonymous and each role), run ownership (invisible runs, refused relays left pending, sessions
// nobody else may continue), who the audit names, and cross-origin refusals that change nothing.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { coveredRoutes, defaultRequest, ROWS, rowTitle, type World } from './support/access-matrix';
import {
  adminPrincipal,
  anonymous,
  createUser,
  errorCode,
  PRINCIPALS,
  randomSuffix,
  send,
  signIn,
  type Principal,
} from './support/access-principals';
import { getRun, listRunIds, RunTracker } from './support/access-runs';

const PASSWORD = 'matrix-password-1';
let w: World;

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  const base = baseURL!;
  const suffix = randomSuffix();
  const admin = await adminPrincipal(playwright, base);
  await createUser(admin, `matrix-approver-${suffix}`, 'approver', PASSWORD);
  await createUser(admin, `matrix-user-${suffix}`, 'user', PASSWORD);
  await createUser(admin, `matrix-other-${suffix}`, 'user', PASSWORD);
  const target = await createUser(admin, `matrix-target-${suffix}`, 'user', PASSWORD);
  // The sign-out rows end these accounts' sessions, never the principals' own.
  const spares = {
    user: await createUser(admin, `matrix-spare-user-${suffix}`, 'user', PASSWORD),
    approver: await createUser(admin, `matrix-spare-approver-${suffix}`, 'approver', PASSWORD),
  };
  const [user, approver, other] = await Promise.all([
    signIn(playwright, base, `matrix-user-${suffix}`, PASSWORD),
    signIn(playwright, base, `matrix-approver-${suffix}`, PASSWORD),
    signIn(playwright, base, `matrix-other-${suffix}`, PASSWORD),
  ]);
  const runs = new RunTracker();
  w = {
    who: { anonymous: await anonymous(playwright, base), user, approver, admin },
    other,
    target,
    spares,
    password: PASSWORD,
    suffix,
    runs,
    userDone: await runs.startFinished(user),
    otherDone: await runs.startFinished(other),
    otherSession: await runs.startFinished(other),
    userWaiting: await runs.startWaiting(user, `matrix-user-${suffix}`),
    otherWaiting: await runs.startWaiting(other, `matrix-other-${suffix}`),
  };
});

test.afterAll(async () => {
  if (!w) return;
  await w.runs.cleanup(w.who.admin);
  for (const who of [...Object.values(w.who), w.other]) await who.api.dispose();
});

test.describe('role × route matrix', () => {
  for (const row of ROWS) {
    test(rowTitle(row), async () => {
      const seen: string[] = [];
      for (const name of PRINCIPALS) {
        const req = row.request ? await row.request(w, name) : defaultRequest(row);
        const response = await send(w.who[name], row.route.split(' ')[0]!, req.path, {
          data: req.data,
          headers: req.headers,
        });
        const status = response.status();
        const code = await errorCode(response);
        const expected = row.expect[name];
        const expectedCode =
          row.codes?.[name] ??
          (expected === 401 ? 'unauthorized' : expected === 403 ? `forbidden:${row.access}` : undefined);
        seen.push(`${name}: ${status}${code ? ` ${code}` : ''}`);
        expect.soft(status, `${name} → ${req.path}`).toBe(expected);
        if (expectedCode) expect.soft(code, `${name}'s error code`).toBe(expectedCode);
        if (status >= 500) expect.soft(await response.text(), `${name} got a server error`).toBe('');
      }
      test.info().annotations.push({ type: 'matrix', description: seen.join(', ') });
    });
  }

  test('covers every route and method under app/api', () => {
    const routes = listApiRoutes(path.join(process.cwd(), 'app', 'api'));
    expect(routes.length).toBeGreaterThan(20);
    const covered = coveredRoutes();
    // An endless stream cannot be a matrix row (its answer never ends); its access is pinned by
    // app/api/relays/stream/route.test.ts, and the inbox specs follow it in the browser.
    for (const route of ['GET /api/relays/stream']) covered.add(route);
    expect(routes.filter((route) => !covered.has(route))).toEqual([]);
  });
});

test.describe('run ownership', () => {
  test("a user's run list holds only their own runs, whatever owner they ask for", async () => {
    const { user, approver } = w.who;
    const own = await listRunIds(user, '?limit=200');
    expect(own).toContain(w.userDone.runId);
    expect(own).toContain(w.userWaiting.runId);
    expect(own).not.toContain(w.otherDone.runId);
    expect(own).not.toContain(w.otherWaiting.runId);
    expect(await listRunIds(user, `?owner=${w.other.account!.id}&limit=200`)).not.toContain(w.otherDone.runId);
    expect(await listRunIds(user, `?sessionId=${w.otherDone.sessionId}`)).toEqual([]);

    const everyone = await listRunIds(approver, '?limit=200');
    expect(everyone).toEqual(expect.arrayContaining([w.userDone.runId, w.otherDone.runId, w.otherWaiting.runId]));
    const others = await listRunIds(approver, `?owner=${w.other.account!.id}&limit=200`);
    expect(others).toContain(w.otherDone.runId);
    expect(others).not.toContain(w.userDone.runId);
  });

  test("a user's decision on another user's relay is refused with 403 and the relay stays pending; the owner then decides it", async () => {
    const { user, admin } = w.who;
    const run = await w.runs.startWaiting(w.other, `matrix-refused-${w.suffix}`);
    const refused = await send(user, 'POST', `/api/chat/relay/${run.relayId}`, {
      data: { sessionId: run.sessionId, response: { approved: true } },
    });
    expect(refused.status()).toBe(403);
    expect(await errorCode(refused)).toBe('forbidden:relays:decide:any');
    // Cancelling the run or switching it to "approve everything" is refused too: the run is not
    // theirs to see, so it is 404 there.
    for (const [action, data] of [
      ['cancel', undefined],
      ['mode', { mode: 'bypassPermissions' }],
    ] as const) {
      const response = await send(user, 'POST', `/api/runs/${run.runId}/${action}`, { data });
      expect(response.status(), action).toBe(404);
      expect(await errorCode(response)).toBe('not_found:run');
    }

    const view = await getRun(admin, run.runId);
    expect(view.run.status).toBe('waiting');
    expect(view.run.mode).toBe('default');
    expect(view.pendingRelays.map((r) => r.id)).toEqual([run.relayId]);

    const decided = await send(w.other, 'POST', `/api/chat/relay/${run.relayId}`, {
      data: { sessionId: run.sessionId, response: { approved: true } },
    });
    expect(decided.status(), await decided.text()).toBe(200);
    await run.events.until('done');
    expect((await getRun(admin, run.runId)).run.status).toBe('done');
    expect(await decisionsBy(admin, run.runId)).toEqual([w.other.account!.username]);
  });

  test("an approver decides another user's relay, and the audit names the approver", async () => {
    const { user, approver, admin } = w.who;
    const run = await w.runs.startWaiting(user, `matrix-approved-${w.suffix}`);
    const decided = await send(approver, 'POST', `/api/chat/relay/${run.relayId}`, {
      data: { sessionId: run.sessionId, response: { approved: true } },
    });
    expect(decided.status(), await decided.text()).toBe(200);
    await run.events.until('done');
    expect((await getRun(admin, run.runId)).pendingRelays).toEqual([]);
    expect(await decisionsBy(admin, run.runId)).toEqual([approver.account!.username]);
    // The approver may read the audit too; the user may not.
    expect(await decisionsBy(approver, run.runId)).toEqual([approver.account!.username]);
    expect((await send(user, 'GET', `/api/audit?runId=${run.runId}`)).status()).toBe(403);
  });

  test("continuing another user's session is refused (403) and starts nothing; the owner may", async () => {
    const { user, approver, admin } = w.who;
    const session = w.otherDone.sessionId;
    const before = await listRunIds(admin, `?sessionId=${session}`);
    for (const who of [user, approver]) {
      const response = await send(who, 'POST', '/api/chat', {
        data: { sessionId: session, messages: [{ role: 'user', content: `$ echo borrowed-${w.suffix}` }] },
      });
      expect(response.status(), who.name).toBe(403);
      expect(await errorCode(response)).toBe('forbidden:runs:start');
    }
    expect(await listRunIds(admin, `?sessionId=${session}`)).toEqual(before);
    const again = await w.runs.startFinished(w.other, { sessionId: session });
    expect(again.sessionId).toBe(session);
  });
});

test.describe('cross-origin requests', () => {
  const EVIL = 'http://evil.example';

  test('POST, PUT and DELETE from another origin are refused with forbidden:origin, with a cookie or a Bearer token, and change nothing', async () => {
    const { user, approver, admin } = w.who;
    const expectOriginRefused = async (response: Awaited<ReturnType<typeof send>>, what: string) => {
      expect(response.status(), what).toBe(403);
      expect(await errorCode(response), what).toBe('forbidden:origin');
    };

    // Bearer (admin): create a user, replace the policy with its own current version, revoke a token.
    const username = `matrix-evil-${w.suffix}`;
    await expectOriginRefused(
      await send(admin, 'POST', '/api/users', { origin: EVIL, data: { username, role: 'admin', password: PASSWORD } }),
      'POST /api/users',
    );
    const users = (await (await send(admin, 'GET', '/api/users')).json()) as { items: { username: string }[] };
    expect(users.items.map((u) => u.username)).not.toContain(username);

    const policy = await send(admin, 'GET', '/api/policy');
    const { version, policy: doc } = (await policy.json()) as { version: number; policy: unknown };
    await expectOriginRefused(
      await send(admin, 'PUT', '/api/policy', {
        origin: EVIL,
        headers: { 'If-Match': `"${version}"` },
        data: { policy: doc, note: 'evil' },
      }),
      'PUT /api/policy',
    );
    const versions = (await (await send(admin, 'GET', '/api/policy/versions?limit=1')).json()) as {
      items: { version: number; createdBy?: string; note?: string }[];
    };
    expect(versions.items[0]?.note).not.toBe('evil');

    // Cookie (user): create and revoke tokens, start a run.
    const tokensBefore = await tokenIds(user);
    await expectOriginRefused(
      await send(user, 'POST', '/api/tokens', { origin: EVIL, data: { name: 'evil' } }),
      'POST /api/tokens',
    );
    const created = await send(user, 'POST', '/api/tokens', { data: { name: 'kept' } });
    expect(created.status()).toBe(201);
    const tokenId = ((await created.json()) as { id: string }).id;
    await expectOriginRefused(
      await send(user, 'DELETE', `/api/tokens/${tokenId}`, { origin: EVIL }),
      'DELETE /api/tokens/:id',
    );
    expect(await tokenIds(user)).toEqual([...tokensBefore, tokenId].sort());
    expect((await send(user, 'DELETE', `/api/tokens/${tokenId}`)).status()).toBe(200);

    const runsBefore = await listRunIds(admin, '?limit=200');
    await expectOriginRefused(
      await send(user, 'POST', '/api/chat', { origin: EVIL, data: { messages: [{ role: 'user', content: 'hello' }] } }),
      'POST /api/chat',
    );
    await expectOriginRefused(
      await send(admin, 'POST', '/api/chat', {
        origin: EVIL,
        data: { messages: [{ role: 'user', content: 'hello' }] },
      }),
      'POST /api/chat (Bearer)',
    );
    expect(await listRunIds(admin, '?limit=200')).toEqual(runsBefore);

    // Cookie (approver) and Bearer (admin): deciding a relay leaves it pending.
    const run = await w.runs.startWaiting(w.other, `matrix-evil-${w.suffix}`);
    for (const who of [approver, admin]) {
      await expectOriginRefused(
        await send(who, 'POST', `/api/chat/relay/${run.relayId}`, {
          origin: EVIL,
          data: { sessionId: run.sessionId, response: { approved: true } },
        }),
        `relay as ${who.name}`,
      );
    }
    await expectOriginRefused(
      await send(approver, 'POST', `/api/runs/${run.runId}/cancel`, { origin: EVIL }),
      'cancel',
    );
    const view = await getRun(admin, run.runId);
    expect(view.run.status).toBe('waiting');
    expect(view.pendingRelays.map((r) => r.id)).toEqual([run.relayId]);

    // The origin check comes first: an anonymous cross-origin POST is 403 too, not 401.
    await expectOriginRefused(
      await send(w.who.anonymous, 'POST', '/api/auth/login', { origin: EVIL, data: { username: 'x', password: 'y' } }),
      'anonymous login',
    );
    // `Origin: null` (sandboxed frames) never matches.
    await expectOriginRefused(
      await send(user, 'POST', '/api/tokens', { origin: 'null', data: { name: 'null-origin' } }),
      'Origin: null',
    );
  });

  test('a cookie POST needs a same-origin Origin or Sec-Fetch-Site; a Bearer script without either passes', async () => {
    const { user, admin } = w.who;
    const body = { data: { name: 'origin-check' } };
    const noOrigin = await send(user, 'POST', '/api/tokens', { ...body, origin: null });
    expect(noOrigin.status()).toBe(403);
    expect(await errorCode(noOrigin)).toBe('forbidden:origin');
    for (const site of ['cross-site', 'same-site']) {
      const response = await send(user, 'POST', '/api/tokens', {
        ...body,
        origin: null,
        headers: { 'Sec-Fetch-Site': site },
      });
      expect(response.status(), site).toBe(403);
    }
    const created: string[] = [];
    for (const options of [{ origin: undefined }, { origin: null, headers: { 'Sec-Fetch-Site': 'same-origin' } }]) {
      const response = await send(user, 'POST', '/api/tokens', { ...body, ...options });
      expect(response.status(), JSON.stringify(options)).toBe(201);
      created.push(((await response.json()) as { id: string }).id);
    }
    const script = await send(admin, 'POST', '/api/tokens', { ...body, origin: null });
    expect(script.status()).toBe(201);
    expect(
      (
        await send(admin, 'DELETE', `/api/tokens/${((await script.json()) as { id: string }).id}`, { origin: null })
      ).status(),
    ).toBe(200);
    for (const id of created) expect((await send(user, 'DELETE', `/api/tokens/${id}`)).status()).toBe(200);
    // Reads are not state changes: a GET from another origin is answered (without CORS headers a page cannot read it).
    const read = await send(user, 'GET', '/api/auth/me', { origin: EVIL });
    expect(read.status()).toBe(200);
    expect(read.headers()['access-control-allow-origin']).toBeUndefined();
  });
});

/** Who decided the run's relays, as the audit records it (kind `decision`, a human decider). */
async function decisionsBy(who: Principal, runId: string): Promise<string[]> {
  const response = await send(who, 'GET', `/api/audit?runId=${runId}&kind=decision`);
  expect(response.status(), await response.text()).toBe(200);
  const { items } = (await response.json()) as { items: { decidedBy: string | null; action: string | null }[] };
  return items
    .filter((e) => e.decidedBy && e.decidedBy !== 'policy' && e.decidedBy !== 'system')
    .map((e) => e.decidedBy!);
}

async function tokenIds(who: Principal): Promise<string[]> {
  const response = await send(who, 'GET', '/api/tokens');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { items: { id: string }[] }).items.map((t) => t.id).sort();
}

/** `METHOD /api/...` for every exported handler of every route.ts under `dir` (`[param]` → `:id`). */
function listApiRoutes(dir: string, prefix = '/api'): string[] {
  const routes: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) routes.push(...listApiRoutes(full, `${prefix}/${entry.name.replace(/^\[.+\]$/, ':id')}`));
    else if (entry.name === 'route.ts') {
      const source = readFileSync(full, 'utf8');
      for (const [, method] of source.matchAll(
        /export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g,
      ))
        routes.push(`${method} ${prefix}`);
    }
  }
  return routes.sort();
}
