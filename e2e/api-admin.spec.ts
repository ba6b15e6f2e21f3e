// The policy, grants, runs and audit APIs over HTTP: versioned saves with If-Match, test-a-call,
// import, revoking a grant, cancelling a paused run, and the audit trail of all of it.
import { expect, test } from '@playwright/test';
import { SseReader } from './support/sse';

test.describe.configure({ mode: 'serial' });

/** The policy version the first test saves (its audit entry is checked in the last). */
let savedVersion: number | undefined;

test('the policy is versioned: If-Match required, stale versions refused, bad policies named', async ({ request }) => {
  const current = await request.get('/api/policy');
  const { version, policy } = await current.json();
  expect(current.headers()['etag']).toBe(`"${version}"`);
  expect(policy.rules.some((r: { id?: string }) => r.id === 'no-private-network')).toBe(true);

  expect((await request.put('/api/policy', { data: { policy } })).status()).toBe(428);
  const bad = await request.put('/api/policy', {
    headers: { 'If-Match': `"${version}"` },
    data: { policy: { rules: [{ action: 'sometimes', tool: 'x' }] } },
  });
  expect(bad.status()).toBe(400);
  expect((await bad.json()).error.fields[0].path).toBe('rules.0.action');

  const edited = {
    ...policy,
    rules: [...policy.rules, { id: 'no-curl', action: 'deny', tool: 'bash', params: { command: 'curl *' } }],
  };
  const saved = await request.put('/api/policy', {
    headers: { 'If-Match': `"${version}"` },
    data: { policy: edited, note: 'no curl' },
  });
  expect(saved.status()).toBe(200);
  expect((await saved.json()).version).toBe(version + 1);
  savedVersion = version + 1;
  const stale = await request.put('/api/policy', { headers: { 'If-Match': `"${version}"` }, data: { policy } });
  expect(stale.status()).toBe(412);
  expect((await stale.json()).error.currentVersion).toBe(version + 1);

  const versions = await (await request.get('/api/policy/versions')).json();
  expect(versions.items[0]).toMatchObject({ version: version + 1, note: 'no curl' });
});

test('test a call: the decision with the deciding rule and the parts of a shell command', async ({ request }) => {
  const response = await request.post('/api/policy/evaluate', {
    data: { call: { tool: 'bash', params: { command: 'ls && curl https://x.io' } } },
  });
  const { decision } = await response.json();
  expect(decision).toMatchObject({ action: 'deny', rule: { id: 'no-curl' } });
  expect(decision.parts.map((p: { program: string; action: string }) => [p.program, p.action])).toEqual([
    ['ls', 'ask'],
    ['curl', 'deny'],
  ]);
  const draft = await request.post('/api/policy/evaluate', {
    data: {
      call: { tool: 'bash', params: { command: 'ls' } },
      policy: { allowlist: [{ tool: 'bash', params: { command: 'ls *' } }] },
    },
  });
  expect((await draft.json()).decision).toMatchObject({ action: 'allow' });
  expect((await request.post('/api/policy/evaluate', { data: { call: { params: {} } } })).status()).toBe(400);
});

test('import converts the foreign formats; dryRun only converts', async ({ request }) => {
  const doc = { default_action: 'approve', rules: [{ tool: 'bash', action: 'approve', timeout_s: 30 }] };
  const dry = await request.post('/api/policy/import?dryRun=1', { data: doc });
  expect((await dry.json()).policy).toEqual({
    defaultAction: 'ask',
    rules: [{ action: 'ask', tool: 'bash', timeoutS: 30 }],
  });
  const bad = await request.post('/api/policy/import?dryRun=1', { data: { rules: [{ tool: 'x', action: 'nope' }] } });
  expect(bad.status()).toBe(400);
});

test('an Always Allow grant is listed and can be revoked; a paused run can be cancelled; the audit shows it all', async ({
  baseURL,
  request,
}) => {
  const sessionId = `admin-${Date.now()}`;
  const open = () =>
    SseReader.open(`${baseURL}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ sessionId, messages: [{ role: 'user', content: '$ echo granted' }] }),
    });
  const first = await open();
  const relay = (await first.events.until('relay')).data as { id: string };
  await request.post(`/api/chat/relay/${relay.id}`, {
    data: { sessionId, response: { approved: true, always: true } },
  });
  await first.events.rest();

  const grants = (await (await request.get(`/api/grants?sessionId=${sessionId}`)).json()).items;
  expect(grants).toEqual([
    expect.objectContaining({ rule: expect.objectContaining({ params: { command: 'echo *' } }), scope: 'session' }),
  ]);
  const second = await open();
  expect((await second.events.rest()).some((e) => e.event === 'relay')).toBe(false);

  expect((await request.delete(`/api/grants/${grants[0].id}`)).status()).toBe(200);
  expect((await request.delete(`/api/grants/${grants[0].id}`)).status()).toBe(404);

  const third = await open();
  const { runId } = (await third.events.until('connected')).data as { runId: string };
  await third.events.until('relay');
  const detail = await (await request.get(`/api/runs/${runId}`)).json();
  expect(detail.run).toMatchObject({ id: runId, status: 'waiting' });
  expect(detail.pendingRelays).toHaveLength(1);
  expect((await request.post(`/api/runs/${runId}/cancel`)).status()).toBe(200);
  const rest = await third.events.rest();
  expect(rest.find((e) => e.event === 'relay_resolved')?.data).toMatchObject({ status: 'cancelled' });
  const runs = (await (await request.get('/api/runs?limit=10')).json()).items;
  expect(runs.find((r: { id: string }) => r.id === runId)).toMatchObject({ status: 'cancelled' });

  const audit = (await (await request.get(`/api/audit?sessionId=${sessionId}`)).json()).items as {
    kind: string;
    decidedBy?: string;
  }[];
  expect(audit.map((a) => a.kind)).toEqual(expect.arrayContaining(['decision', 'grant_created', 'grant_revoked']));
  // Who: the grant's creation and revocation and the human decision name the signed-in admin
  // (`policy`, `grant` and `system` are the automatic deciders; an ask has no decider yet).
  const human = audit.filter((a) => a.decidedBy && !['policy', 'grant', 'system'].includes(a.decidedBy));
  expect(human.length).toBeGreaterThanOrEqual(3);
  expect(human.map((a) => a.decidedBy)).toEqual(human.map(() => 'admin'));
  // The first test's policy save is audited with the username of the admin who made it.
  const me = (await (await request.get('/api/auth/me')).json()) as { username: string };
  expect(me.username).toBe('admin');
  const policyEdits = (await (await request.get('/api/audit?kind=policy_edit&limit=200')).json()).items as {
    kind: string;
    decidedBy?: string;
    details?: { version?: number };
  }[];
  expect(savedVersion, 'the first test saved the policy').toBeDefined();
  expect(policyEdits.find((a) => a.details?.version === savedVersion)).toMatchObject({
    kind: 'policy_edit',
    decidedBy: me.username,
    details: { version: savedVersion, note: 'no curl' },
  });
  expect((await request.get('/api/audit?cursor=garbage')).status()).toBe(400);
  expect((await request.get('/api/audit?from=not-a-date')).status()).toBe(400);
});
