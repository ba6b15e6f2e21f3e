// Requests that used to cost the server seconds: a regex or a glob that backtracks, a draft policy
// from someone who may not edit the policy, a run's permissions of any size. Each is now answered
// at once, or refused with a 4xx naming the field, and nothing runs.
import { expect, test } from '@playwright/test';
import { adminPrincipal, createUser, randomSuffix, send, signIn, type Principal } from './support/access-principals';

const PASSWORD = 'limits-password-1';
let admin: Principal;
let user: Principal;

test.beforeAll(async ({ playwright, baseURL }) => {
  admin = await adminPrincipal(playwright, baseURL!);
  const username = `limits-user-${randomSuffix()}`;
  await createUser(admin, username, 'user', PASSWORD);
  user = await signIn(playwright, baseURL!, username, PASSWORD);
});

test.afterAll(async () => {
  await Promise.all([admin?.api.dispose(), user?.api.dispose()]);
});

const evaluateAs = (who: Principal, data: unknown) => send(who, 'POST', '/api/policy/evaluate', { data });
const regexPolicy = (value: string) => ({
  rules: [{ action: 'deny', tool: 'http', when: [{ key: 'path', op: 'regex', value }] }],
});

test('a user tests a call against the stored policy, and may not send a draft policy', async () => {
  const call = { tool: 'bash', params: { command: 'ls' } };
  const stored = await evaluateAs(user, { call });
  expect(stored.status()).toBe(200);
  const answer = await stored.json();
  expect(['allow', 'ask', 'deny']).toContain(answer.decision.action);
  expect(answer.version).toBe((await (await send(user, 'GET', '/api/policy')).json()).version);

  const draft = await evaluateAs(user, {
    call,
    policy: { rules: Array.from({ length: 8000 }, () => ({ action: 'allow', tool: 'bash' })) },
  });
  expect(draft.status()).toBe(403);
  const { error } = await draft.json();
  expect(error).toMatchObject({ code: 'forbidden:policy:edit', fields: [{ path: 'policy' }] });
  expect(error.message).toMatch(/leave out `policy`/);

  const asAdmin = await evaluateAs(admin, { call, policy: { rules: [{ action: 'allow', tool: 'bash' }] } });
  expect((await asAdmin.json()).decision).toMatchObject({ action: 'allow' });
});

test('a regex and a glob that backtrack are answered at once', async () => {
  const started = Date.now();
  // Backtracking took 6 s at 26 characters and 4 times longer for every 2 more.
  const regex = await evaluateAs(admin, {
    call: { tool: 'http', params: { path: `${'a'.repeat(5000)}!` } },
    policy: regexPolicy('(a+)+$'),
  });
  expect((await regex.json()).decision.action).toBe('ask');
  // 2.4 s at 300 characters.
  const glob = await evaluateAs(admin, {
    call: { tool: 'http', params: { path: 'a'.repeat(5000) } },
    policy: { rules: [{ action: 'deny', tool: 'http', params: { path: '*a*a*a*a*a*a*a*a*b' } }] },
  });
  expect((await glob.json()).decision.action).toBe('ask');
  expect(Date.now() - started).toBeLessThan(5000);
});

test('a regex RE2 cannot run is a 400 naming the field, when tested, saved or given to a run', async () => {
  const tested = await evaluateAs(admin, {
    call: { tool: 'http', params: { path: '/x' } },
    policy: regexPolicy('^(?!/public)'),
  });
  expect(tested.status()).toBe(400);
  expect((await tested.json()).error.fields[0]).toMatchObject({
    path: 'rules.0.when.0.value',
    message: expect.stringMatching(/lookarounds/),
  });

  const { version } = await (await send(admin, 'GET', '/api/policy')).json();
  const saved = await send(admin, 'PUT', '/api/policy', {
    data: { policy: regexPolicy('(a)\\1') },
    headers: { 'If-Match': `"${version}"` },
  });
  expect(saved.status()).toBe(400);
  expect((await saved.json()).error.fields[0]).toMatchObject({
    path: 'rules.0.when.0.value',
    message: expect.stringMatching(/backreferences/),
  });
});

test("a run's permissions over the size limits are a 400 naming the field, and no run starts", async () => {
  const runsBefore = (await (await send(user, 'GET', '/api/runs')).json()).items.length;
  const chat = (permissions: unknown) =>
    send(user, 'POST', '/api/chat', { data: { messages: [{ role: 'user', content: 'hi' }], permissions } });
  const cases: [unknown, string, RegExp][] = [
    [{ allowlist: Array.from({ length: 101 }, () => ({ tool: 'bash' })) }, '', /at most 100 rules/],
    [
      { allowlist: [{ tool: 'bash', params: { command: `echo ${'x'.repeat(500)}` } }] },
      'allowlist.0.params.command',
      /at most 500 characters/,
    ],
    [
      {
        rules: [
          {
            action: 'deny',
            tool: 'x',
            when: [{ key: 'k', op: 'regex', value: '(?:.{999}){1}(?:.{999}){1}(?:.{999}){1}' }],
          },
        ],
      },
      'rules',
      /total at most 5,000/,
    ],
    [regexPolicy('(?<=a)b'), 'rules.0.when.0.value', /lookarounds/],
  ];
  for (const [permissions, field, message] of cases) {
    const response = await chat(permissions);
    expect(response.status()).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe('bad_request:policy');
    expect(error.fields[0]).toMatchObject({ path: field, message: expect.stringMatching(message) });
  }
  expect((await (await send(user, 'GET', '/api/runs')).json()).items.length).toBe(runsBefore);
});
