// The approval flows over HTTP against the production build: deny with a reason, the deadline,
// parallel calls answered out of order, the relay's session check, 50 racing decisions on one
// relay, and a policy edit that takes effect on the next call.
import { expect, test } from '@playwright/test';
import { addRules } from './support/policy-api';
import { SseReader, type SseEvent } from './support/sse';

type Relay = { id: string; params: { command: string } };

async function chat(baseURL: string, body: Record<string, unknown>) {
  const { events } = await SseReader.open(`${baseURL}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const { sessionId, runId } = (await events.until('connected')).data as { sessionId: string; runId: string };
  return { events, sessionId, runId };
}

const say = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  ...extra,
});
const finalText = (events: SseEvent[]) => String(events.find((e) => e.event === 'done')?.data.text ?? '');

test('deny with a reason: the reason reaches the model reply', async ({ baseURL, request }) => {
  const { events, sessionId } = await chat(baseURL!, say('$ echo denied-call'));
  const relay = (await events.until('relay')).data as Relay;
  await request.post(`/api/chat/relay/${relay.id}`, {
    data: { sessionId, response: { approved: false, reason: 'not during the freeze' } },
  });
  const rest = await events.rest();
  expect(rest.find((e) => e.event === 'tool_result')?.data).toMatchObject({ denied: true });
  expect(finalText(rest)).toContain('not during the freeze');
});

test('timeout: a relay whose rule says timeoutS: 1 expires and the call is denied', async ({ baseURL }) => {
  const { events } = await chat(
    baseURL!,
    say('$ echo too-late', { permissions: { rules: [{ action: 'ask', tool: 'bash', timeoutS: 1 }] } }),
  );
  const relay = (await events.until('relay')).data as { expiresAt: number; createdAt: number };
  expect(relay.expiresAt - relay.createdAt).toBe(1_000);
  const rest = await events.rest();
  expect(rest.find((e) => e.event === 'relay_resolved')?.data).toMatchObject({
    status: 'expired',
    reason: 'Approval timeout',
  });
  expect(finalText(rest)).toContain('Approval timeout');
});

test('three parallel calls answered out of order come back in call order', async ({ baseURL, request }) => {
  const { events, sessionId } = await chat(baseURL!, say('$ echo one\n$ echo two\n$ echo three'));
  const relays: Relay[] = [];
  while (relays.length < 3) relays.push((await events.until('relay')).data as Relay);
  const byCommand = (command: string) => relays.find((r) => r.params.command === command)!;
  await request.post(`/api/chat/relay/${byCommand('echo three').id}`, {
    data: { sessionId, response: { approved: true } },
  });
  await request.post(`/api/chat/relay/${byCommand('echo one').id}`, {
    data: { sessionId, response: { approved: false, reason: 'not one' } },
  });
  await request.post(`/api/chat/relay/${byCommand('echo two').id}`, {
    data: { sessionId, response: { approved: true } },
  });
  expect(finalText(await events.rest()).split('\n')).toEqual([
    expect.stringContaining('not one'),
    'bash: two',
    'bash: three',
  ]);
});

test('a decision with the wrong sessionId is a 404 and leaves the relay pending; the right one decides it', async ({
  baseURL,
  request,
}) => {
  const marker = `session-check-${Date.now()}`;
  const { events, sessionId, runId } = await chat(baseURL!, say(`$ echo ${marker}`));
  const relay = (await events.until('relay')).data as Relay;
  const pendingIds = async () =>
    ((await (await request.get(`/api/runs/${runId}`)).json()) as { pendingRelays: { id: string }[] }).pendingRelays.map(
      (r) => r.id,
    );

  for (const wrong of [`${sessionId}-other`, 'not-a-session']) {
    const refused = await request.post(`/api/chat/relay/${relay.id}`, {
      data: { sessionId: wrong, response: { approved: true } },
    });
    expect(refused.status()).toBe(404);
    expect((await refused.json()).error.code).toBe('not_found:relay');
  }
  expect(await pendingIds()).toEqual([relay.id]);
  const run = (await (await request.get(`/api/runs/${runId}`)).json()) as { run: { status: string } };
  expect(run.run.status).toBe('waiting');

  const decided = await request.post(`/api/chat/relay/${relay.id}`, {
    data: { sessionId, response: { approved: true } },
  });
  expect(decided.status()).toBe(200);
  const rest = await events.rest();
  // Only the right session's answer resolved it: one resolution, approved, and the command ran.
  expect(rest.filter((e) => e.event === 'relay_resolved')).toEqual([
    expect.objectContaining({ data: expect.objectContaining({ status: 'approved' }) }),
  ]);
  expect(rest.find((e) => e.event === 'tool_result')?.data).toMatchObject({ output: `${marker}\n` });
  expect(await pendingIds()).toEqual([]);
});

test('50 racing decisions on one relay: exactly one wins, the tool runs once', async ({ baseURL, request }) => {
  const marker = `race-${Date.now()}`;
  const { events, sessionId } = await chat(
    baseURL!,
    say(`$ echo ${marker} >> race.log && cat race.log | grep -c ${marker}`),
  );
  const relay = (await events.until('relay')).data as Relay;
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      request.post(`/api/chat/relay/${relay.id}`, {
        data: { sessionId, response: { approved: i % 2 === 0, reason: `answer ${i}` } },
      }),
    ),
  );
  const statuses = answers.map((a) => a.status());
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 409)).toHaveLength(49);
  const rest = await events.rest();
  expect(rest.filter((e) => e.event === 'tool_result')).toHaveLength(1);
  const result = rest.find((e) => e.event === 'tool_result')!.data;
  if (!result.denied) expect(result.output).toBe('1\n');
});

test('a policy edit takes effect on the next call', async ({ baseURL, request }) => {
  const marker = `edit-${Date.now()}`;
  // addRules retries a save that lost the race to another spec's (a 412), instead of failing.
  await addRules(request, {
    id: marker,
    action: 'deny',
    tool: 'bash',
    params: { command: `echo ${marker}` },
    description: 'Blocked by the editor test',
  });
  const { events } = await chat(baseURL!, say(`$ echo ${marker}`));
  const rest = await events.rest();
  expect(rest.some((e) => e.event === 'relay')).toBe(false);
  expect(finalText(rest)).toContain('Blocked by the editor test');
});
