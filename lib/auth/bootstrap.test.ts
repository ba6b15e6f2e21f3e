import { describe, expect, it } from 'vitest';
import { emptyAuthTablesBeforeEach } from '../db/test-support/auth-tables';
import { describeStores } from '../db/test-support/stores';
import { authenticate } from './authenticate';
import { ensureAdmin, loginBaseUrl } from './bootstrap';
import { createUser, exchangeLoginToken, resetPassword } from './users';

const FAST = { N: 2 ** 10, r: 8, p: 1 };
const ADMIN_TOKEN = 'test-admin-token-0123456789';
const secret = 'bootstrap-test-secret-0123456789abc';

function logger() {
  const lines: string[] = [];
  return { lines, log: (line: string) => void lines.push(line) };
}

const tokenOf = (url: string | undefined) => new URL(url!).searchParams.get('token')!;

describe('loginBaseUrl', () => {
  it.each([
    [{}, 'http://127.0.0.1:3000'],
    [{ host: '0.0.0.0', port: 8080 }, 'http://127.0.0.1:8080'],
    [{ host: 'localhost', port: '3100' }, 'http://localhost:3100'],
    [{ host: '::1', port: 3000 }, 'http://[::1]:3000'],
    [{ baseUrl: 'https://gate.example/' }, 'https://gate.example'],
  ])('%j -> %s', (input, expected) => {
    expect(loginBaseUrl(input)).toBe(expected);
  });
});

describeStores('ensureAdmin', (store) => {
  emptyAuthTablesBeforeEach(store);

  it('first start: creates admin (no password) and prints a one-time link that signs in once', async () => {
    const { q } = store();
    const { lines, log } = logger();
    const result = await ensureAdmin({ q, host: '127.0.0.1', port: 3000, log });
    expect(result).toMatchObject({
      created: true,
      tokenAttached: false,
      admin: { username: 'admin', role: 'admin', passwordHash: null },
    });
    expect(result.loginUrl).toMatch(/^http:\/\/127\.0\.0\.1:3000\/login\?token=[A-Za-z0-9_-]{43}$/);
    expect(lines.join('\n')).toContain(result.loginUrl!);
    expect(lines.join('\n')).toContain('24 h');
    expect((await exchangeLoginToken({ q, token: tokenOf(result.loginUrl) })).id).toBe(result.admin!.id);
    await expect(exchangeLoginToken({ q, token: tokenOf(result.loginUrl) })).rejects.toMatchObject({
      code: 'unauthorized:login_token',
    });
  });

  it('is idempotent: a second start creates nobody, and prints a fresh link only while no admin has a password', async () => {
    const { q } = store();
    const first = await ensureAdmin({ q, log: () => {} });
    const second = await ensureAdmin({ q, log: () => {} });
    expect(second).toMatchObject({ created: false, admin: { id: first.admin!.id } });
    expect(second.loginUrl).toBeDefined();
    expect(second.loginUrl).not.toBe(first.loginUrl);
    expect(await q.users.countUsers()).toBe(1);
    await resetPassword({ q, scrypt: FAST, id: first.admin!.id, password: 'the admin password' });
    const { lines, log } = logger();
    const third = await ensureAdmin({ q, log });
    expect(third.loginUrl).toBeUndefined();
    expect(lines).toEqual([]);
  });

  it('two processes starting at once make one admin', async () => {
    const { q } = store();
    const results = await Promise.all([ensureAdmin({ q, log: () => {} }), ensureAdmin({ q, log: () => {} })]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await q.users.countUsers()).toBe(1);
    expect(new Set(results.map((r) => r.admin?.id)).size).toBe(1);
  });

  it("with GATEHOUSE_ADMIN_TOKEN: the admin's API token, and no secret printed", async () => {
    const { q } = store();
    const { lines, log } = logger();
    const result = await ensureAdmin({ q, adminToken: ADMIN_TOKEN, log });
    expect(result).toMatchObject({ created: true, tokenAttached: true });
    expect(result.loginUrl).toBeUndefined();
    expect(lines.join('\n')).not.toContain(ADMIN_TOKEN);
    expect(lines.join('\n')).not.toContain('token=');
    const user = await authenticate({ q, headers: new Headers({ authorization: `Bearer ${ADMIN_TOKEN}` }), secret });
    expect(user).toMatchObject({ username: 'admin', role: 'admin', via: 'token' });
  });

  it('with GATEHOUSE_ADMIN_TOKEN on a later start: attached once to the first admin, a revoked one stays revoked', async () => {
    const { q } = store();
    await createUser({ q, username: 'boss', role: 'admin' });
    const attached = await ensureAdmin({ q, adminToken: ADMIN_TOKEN, log: () => {} });
    expect(attached).toMatchObject({ created: false, tokenAttached: true, admin: { username: 'boss' } });
    const again = await Promise.all([1, 2].map(() => ensureAdmin({ q, adminToken: ADMIN_TOKEN, log: () => {} })));
    expect(again.map((r) => r.tokenAttached)).toEqual([false, false]);
    expect(await q.tokens.listApiTokens()).toHaveLength(1);
    const [row] = await q.tokens.listApiTokens();
    await q.tokens.revokeApiToken({ id: row!.id });
    await ensureAdmin({ q, adminToken: ADMIN_TOKEN, log: () => {} });
    expect(
      await authenticate({ q, headers: new Headers({ authorization: `Bearer ${ADMIN_TOKEN}` }), secret }),
    ).toBeUndefined();
  });
});
