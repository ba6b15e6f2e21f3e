// Conversations over HTTP: GET /api/sessions lists the caller's own sessions (newest activity
// first, cursor-paginated), GET /api/sessions/:id gives every turn with its prompt and events;
// a user neither lists nor opens another user's session (404, its existence not revealed), and
// may not ask for someone else's list (403); an admin may.
import { expect, test } from '@playwright/test';
import {
  adminPrincipal,
  createUser,
  errorCode,
  openStream,
  randomSuffix,
  send,
  signIn,
  type Principal,
} from './support/access-principals';

const PASSWORD = 'sessions-password-1';
let admin: Principal;
let alice: Principal;
let bob: Principal;

test.beforeAll(async ({ playwright, baseURL }) => {
  const suffix = randomSuffix();
  admin = await adminPrincipal(playwright, baseURL!);
  await createUser(admin, `sessions-alice-${suffix}`, 'user', PASSWORD);
  await createUser(admin, `sessions-bob-${suffix}`, 'user', PASSWORD);
  [alice, bob] = await Promise.all([
    signIn(playwright, baseURL!, `sessions-alice-${suffix}`, PASSWORD),
    signIn(playwright, baseURL!, `sessions-bob-${suffix}`, PASSWORD),
  ]);
});

/** Runs one turn to its end (a list_files call the default policy allows); returns the ids. */
async function turn(
  who: Principal,
  messages: Array<{ role: 'user' | 'assistant'; content: string }>,
  sessionId?: string,
) {
  const { events } = await openStream(who, 'POST', '/api/chat', { messages, ...(sessionId ? { sessionId } : {}) });
  const connected = (await events.until('connected')).data as { runId: string; sessionId: string };
  const done = (await events.until('done')).data as { text: string };
  return { ...connected, reply: done.text };
}

interface Detail {
  session: { sessionId: string; owner: string; runCount: number; lastRunId: string };
  turns: Array<{
    run: { id: string; sessionId: string };
    prompt: string;
    events: Array<{ type: string; seq: number; runId: string }>;
  }>;
}

test('a session with two turns: listed once, opened with both prompts and their events', async () => {
  const first = await turn(alice, [{ role: 'user', content: 'ls .' }]);
  const second = await turn(
    alice,
    [
      { role: 'user', content: 'ls .' },
      { role: 'assistant', content: first.reply },
      { role: 'user', content: 'read README.md' },
    ],
    first.sessionId,
  );
  expect(second.sessionId).toBe(first.sessionId);

  const list = await send(alice, 'GET', '/api/sessions');
  expect(list.status()).toBe(200);
  const { items } = (await list.json()) as {
    items: Array<{ sessionId: string; runCount: number; lastRunId: string; owner: string }>;
  };
  expect(items.filter((s) => s.sessionId === first.sessionId)).toEqual([
    expect.objectContaining({ runCount: 2, lastRunId: second.runId, owner: alice.account!.id }),
  ]);

  const response = await send(alice, 'GET', `/api/sessions/${first.sessionId}`);
  expect(response.status()).toBe(200);
  const detail = (await response.json()) as Detail;
  expect(detail.session).toMatchObject({ sessionId: first.sessionId, runCount: 2, lastRunId: second.runId });
  expect(detail.turns.map((t) => [t.run.id, t.prompt])).toEqual([
    [first.runId, 'ls .'],
    [second.runId, 'read README.md'],
  ]);
  for (const t of detail.turns) {
    const types = t.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['tool_call', 'tool_result', 'done']));
    expect(t.events.every((e) => e.runId === t.run.id)).toBe(true);
    expect(t.events.map((e) => e.seq)).toEqual(t.events.map((_e, i) => i + 1));
  }
});

test('the list pages with a cursor, newest activity first, every session once', async () => {
  const started = [];
  for (let i = 0; i < 3; i++) started.push((await turn(bob, [{ role: 'user', content: 'ls .' }])).sessionId);
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await send(bob, 'GET', `/api/sessions?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
    expect(response.status()).toBe(200);
    const page = (await response.json()) as { items: Array<{ sessionId: string }>; nextCursor: string | null };
    expect(page.items.length).toBeLessThanOrEqual(2);
    seen.push(...page.items.map((s) => s.sessionId));
    cursor = page.nextCursor;
  } while (cursor);
  expect(seen.slice(0, 3)).toEqual(started.toReversed());
  expect(new Set(seen).size).toBe(seen.length);
});

test("a user neither lists nor opens another user's session; an admin may", async () => {
  const alices = await turn(alice, [{ role: 'user', content: 'ls .' }]);

  const bobsList = (await (await send(bob, 'GET', '/api/sessions?limit=200')).json()) as {
    items: Array<{ sessionId: string }>;
  };
  expect(bobsList.items.map((s) => s.sessionId)).not.toContain(alices.sessionId);

  const opened = await send(bob, 'GET', `/api/sessions/${alices.sessionId}`);
  expect(opened.status()).toBe(404);
  expect(await errorCode(opened)).toBe('not_found:session');

  const asked = await send(bob, 'GET', `/api/sessions?user=${encodeURIComponent(alice.account!.id)}`);
  expect(asked.status()).toBe(403);

  const byAdmin = await send(admin, 'GET', `/api/sessions?user=${encodeURIComponent(alice.account!.id)}&limit=200`);
  expect(byAdmin.status()).toBe(200);
  expect(((await byAdmin.json()) as { items: Array<{ sessionId: string }> }).items.map((s) => s.sessionId)).toContain(
    alices.sessionId,
  );
  expect((await send(admin, 'GET', `/api/sessions/${alices.sessionId}`)).status()).toBe(200);
});
