// The rules of Always Allow over HTTP, with users of every role: a rule supplied with a decision
// must be an allow rule for the relay's own tool that covers the call, and (but for an admin) one
// of the suggested rules unchanged or the exact call; only an admin grants for everyone. Every
// refusal names the field and leaves the relay pending; grants name who created them. And the
// audit says when a call was allowed by the run's own permissions.
import { expect, test } from '@playwright/test';
import {
  adminPrincipal,
  createUser,
  openStream,
  randomSuffix,
  send,
  signIn,
  type Principal,
} from './support/access-principals';
import { getRun, RunTracker, type WaitingRun } from './support/access-runs';

const PASSWORD = 'always-password-1';
let admin: Principal;
let user: Principal;
let other: Principal;
let approver: Principal;
let suffix: string;
const runs = new RunTracker();

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(120_000);
  suffix = randomSuffix();
  admin = await adminPrincipal(playwright, baseURL!);
  for (const [name, role] of [
    ['user', 'user'],
    ['other', 'user'],
    ['approver', 'approver'],
  ] as const)
    await createUser(admin, `always-${name}-${suffix}`, role, PASSWORD);
  const signed = (name: string) => signIn(playwright, baseURL!, `always-${name}-${suffix}`, PASSWORD);
  [user, other, approver] = await Promise.all([signed('user'), signed('other'), signed('approver')]);
});

test.afterAll(async () => {
  await runs.cleanup(admin);
  for (const grant of await grantsOf(admin)) {
    if (grant.createdBy.includes(suffix) || grant.rule.params?.command?.includes(suffix))
      await send(admin, 'DELETE', `/api/grants/${grant.id}`);
  }
  for (const who of [admin, user, other, approver]) await who?.api.dispose();
});

interface Grant {
  id: string;
  rule: { tool: string; params?: Record<string, string> };
  scope: string;
  sessionId: string | null;
  createdBy: string;
}

async function grantsOf(who: Principal): Promise<Grant[]> {
  const response = await send(who, 'GET', '/api/grants');
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { items: Grant[] }).items;
}

const decide = (who: Principal, run: WaitingRun, response: Record<string, unknown>) =>
  send(who, 'POST', `/api/chat/relay/${run.relayId}`, { data: { sessionId: run.sessionId, response } });

async function expectRefused(
  who: Principal,
  run: WaitingRun,
  response: Record<string, unknown>,
  status: number,
  code: string,
  field: string,
) {
  const answer = await decide(who, run, response);
  const body = (await answer.json()) as {
    error: { code: string; message: string; fields: { path: string; message: string }[] };
  };
  expect(answer.status(), JSON.stringify(body)).toBe(status);
  expect(body.error.code).toBe(code);
  expect(body.error.fields.map((f) => f.path)).toEqual([field]);
  expect(body.error.message).toContain(field);
  expect(
    (await getRun(admin, run.runId)).pendingRelays.map((r) => r.id),
    'the relay stays pending',
  ).toEqual([run.relayId]);
}

const echo = (command: string) => ({ action: 'allow', tool: 'bash', params: { command } });

test('a user is refused every rule Always Allow may not add, and the relay stays pending each time', async () => {
  const run = await runs.startWaiting(user, `refused-${suffix}`);
  const always = { approved: true, always: true };
  await expectRefused(
    user,
    run,
    { ...always, rule: { action: 'allow', tool: '*' } },
    422,
    'unprocessable:rule',
    'response.rule.tool',
  );
  await expectRefused(
    user,
    run,
    { ...always, rule: [{ action: 'allow', tool: 'read_file' }] },
    422,
    'unprocessable:rule',
    'response.rule.0.tool',
  );
  await expectRefused(
    user,
    run,
    { ...always, rule: { action: 'deny', tool: 'bash' } },
    422,
    'unprocessable:rule',
    'response.rule.action',
  );
  await expectRefused(user, run, { ...always, rule: echo('ls *') }, 422, 'unprocessable:rule', 'response.rule');
  await expectRefused(
    user,
    run,
    { ...always, rule: echo('echo refused*') },
    422,
    'unprocessable:rule',
    'response.rule',
  );
  await expectRefused(user, run, { ...always, scope: 'global' }, 403, 'forbidden:grants:manage', 'response.scope');
  // The suggested rule, unchanged, is accepted, for the user's session.
  const accepted = await decide(user, run, { ...always, rule: echo('echo *') });
  expect(accepted.status(), await accepted.text()).toBe(200);
  await run.events.until('done');
  const mine = (await grantsOf(admin)).filter((g) => g.sessionId === run.sessionId);
  expect(mine).toEqual([
    expect.objectContaining({
      rule: expect.objectContaining({ params: { command: 'echo *' } }),
      scope: 'session',
      createdBy: user.account!.username,
    }),
  ]);
  await send(admin, 'DELETE', `/api/grants/${mine[0]!.id}`);
});

test("the attack: a user's global tool glob is refused and another user's pending call stays pending", async () => {
  const theirs = await runs.startWaiting(other, `theirs-${suffix}`);
  const mine = await runs.startWaiting(user, `mine-${suffix}`);
  await expectRefused(
    user,
    mine,
    { approved: true, always: true, scope: 'global', rule: { action: 'allow', tool: '*' } },
    403,
    'forbidden:grants:manage',
    'response.scope',
  );
  await expectRefused(
    user,
    mine,
    { approved: true, always: true, rule: { action: 'allow', tool: '*' } },
    422,
    'unprocessable:rule',
    'response.rule.tool',
  );
  expect((await getRun(admin, theirs.runId)).pendingRelays.map((r) => r.id)).toEqual([theirs.relayId]);
  expect((await grantsOf(admin)).filter((g) => g.rule.tool === '*')).toEqual([]);
  // The exact call is fine; it grants nothing beyond the user's own session.
  expect((await decide(user, mine, { approved: true, always: true, rule: echo(`echo mine-${suffix}`) })).status()).toBe(
    200,
  );
  await mine.events.until('done');
  expect((await getRun(admin, theirs.runId)).pendingRelays.map((r) => r.id)).toEqual([theirs.relayId]);
});

test("an approver deciding someone else's relay grants for that session, never for everyone", async () => {
  const run = await runs.startWaiting(user, `approved-${suffix}`);
  await expectRefused(
    approver,
    run,
    { approved: true, always: true, scope: 'global' },
    403,
    'forbidden:grants:manage',
    'response.scope',
  );
  await expectRefused(
    approver,
    run,
    { approved: true, always: true, rule: echo('echo approved*') },
    422,
    'unprocessable:rule',
    'response.rule',
  );
  expect((await decide(approver, run, { approved: true, always: true })).status()).toBe(200);
  await run.events.until('done');
  // Whoever may see the grants sees who created each.
  for (const reader of [admin, approver]) {
    const made = (await grantsOf(reader)).filter((g) => g.sessionId === run.sessionId);
    expect(made).toEqual([expect.objectContaining({ scope: 'session', createdBy: approver.account!.username })]);
  }
});

test('an admin may edit the rule freely and grant for everyone, but only for the tool and covering the call', async () => {
  const run = await runs.startWaiting(user, `admin-${suffix}`);
  await expectRefused(
    admin,
    run,
    { approved: true, always: true, scope: 'global', rule: { action: 'allow', tool: '*' } },
    422,
    'unprocessable:rule',
    'response.rule.tool',
  );
  await expectRefused(
    admin,
    run,
    { approved: true, always: true, scope: 'global', rule: echo('ls *') },
    422,
    'unprocessable:rule',
    'response.rule.params',
  );
  const edited = echo(`echo admin-${suffix}*`);
  expect((await decide(admin, run, { approved: true, always: true, scope: 'global', rule: edited })).status()).toBe(
    200,
  );
  await run.events.until('done');
  const made = (await grantsOf(admin)).filter((g) => g.rule.params?.command === edited.params.command);
  expect(made).toEqual([
    expect.objectContaining({ scope: 'global', sessionId: null, createdBy: admin.account!.username }),
  ]);
});

test("a call allowed by the run's own permissions is audited as such", async () => {
  const command = `echo by-the-run-${suffix}`;
  const abort = new AbortController();
  const { response, events } = await openStream(
    user,
    'POST',
    '/api/chat',
    {
      messages: [{ role: 'user', content: `$ ${command}` }],
      permissions: { allowlist: [{ tool: 'bash', params: { command } }] },
    },
    abort.signal,
  );
  expect(response.status).toBe(200);
  const { runId } = (await events.until('connected')).data as { runId: string };
  await events.until('done');
  abort.abort();
  const audit = await send(admin, 'GET', `/api/audit?runId=${runId}`);
  const rows = ((await audit.json()) as { items: { action: string; rule: Record<string, unknown> | null }[] }).items;
  expect(rows).toEqual([
    expect.objectContaining({ action: 'allow', rule: expect.objectContaining({ source: 'run', permissionsIndex: 0 }) }),
  ]);
});
