// The cap on the event streams one user holds open (GATEHOUSE_MAX_STREAMS_PER_USER, here 3): every
// route that opens one (a run's events, the chat, the approvals inbox) counts against the same
// cap, for the user whichever credential they use, and every way a stream ends gives its place back.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startSession } from '@/lib/auth/sessions';
import { streamSlots } from '@/lib/server/http/stream-slots';
import { apiRequest, noParams, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST as chat } from '../chat/route';
import { GET as relayStream } from '../relays/stream/route';
import { GET as events } from './[id]/events/route';

const CAP = 3;
vi.stubEnv('GATEHOUSE_MAX_STREAMS_PER_USER', String(CAP));
afterAll(() => void vi.unstubAllEnvs());

const server = withRouteRuntime('gatehouse-stream-cap-');
const ORIGIN = 'http://127.0.0.1:3000';

let n = 0;

/** A user of the least privileged role, their API token and a waiting run of theirs (its stream stays open). */
async function reader(status: 'waiting' | 'done' = 'waiting') {
  const { user, token } = await server.person('user');
  const runId = `cap-run-${++n}`;
  await server.rt().q.runs.createRun({ id: runId, sessionId: `s-${runId}`, status, owner: user.id });
  return { user, token, runId };
}

/** GET /api/runs/:id/events with a token or a session cookie; the controller is the client's connection. */
async function openEvents(runId: string, credential: { token: string } | { cookie: string }) {
  const client = new AbortController();
  const request =
    'token' in credential
      ? apiRequest('GET', `/api/runs/${runId}/events`, { token: credential.token })
      : new Request(new URL(`/api/runs/${runId}/events`, ORIGIN), { headers: { cookie: credential.cookie } });
  const response = await events(new Request(request, { signal: client.signal }), {
    params: Promise.resolve({ id: runId }),
  });
  return { client, response };
}

async function expectTooMany(response: Response) {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toContain('application/json');
  const { error } = (await response.json()) as { error: { code: string; message: string; limit: number } };
  expect(error.code).toBe('too_many_streams');
  expect(error.limit).toBe(CAP);
  expect(error.message).toContain(`${CAP} at once (GATEHOUSE_MAX_STREAMS_PER_USER)`);
}

/** Reads the stream to its end (the server ended it); what it said. */
async function readToEnd(response: Response): Promise<string> {
  let text = '';
  const decoder = new TextDecoder();
  const body = response.body!.getReader();
  for (let chunk = await body.read(); !chunk.done; chunk = await body.read()) text += decoder.decode(chunk.value);
  return text;
}

describe('the cap on open event streams per user', () => {
  it('refuses stream cap+1 with a 429 too_many_streams naming the limit; closing one lets a new one open', async () => {
    const { user, token, runId } = await reader();
    const open: Awaited<ReturnType<typeof openEvents>>[] = [];
    for (let i = 0; i < CAP; i++) {
      const stream = await openEvents(runId, { token });
      expect(stream.response.status).toBe(200);
      open.push(stream);
    }
    expect(streamSlots().heldBy(user.id)).toBe(CAP);
    await expectTooMany((await openEvents(runId, { token })).response);
    // The client of one goes away: its place is free at once.
    open.shift()!.client.abort();
    expect(streamSlots().heldBy(user.id)).toBe(CAP - 1);
    const again = await openEvents(runId, { token });
    expect(again.response.status).toBe(200);
    for (const stream of [...open, again]) stream.client.abort();
    expect(streamSlots().heldBy(user.id)).toBe(0);
  });

  it("counts a user's API token and browser session together, and each user on their own", async () => {
    const { user, token, runId } = await reader();
    const rt = server.rt();
    const { cookie } = await startSession({ q: rt.q, userId: user.id, secret: rt.sessionSecret, secure: false });
    const session = { cookie: cookie.split(';')[0]! };
    const open = [await openEvents(runId, { token }), await openEvents(runId, session)];
    const inbox = new AbortController();
    const inboxResponse = await relayStream(
      new Request(apiRequest('GET', '/api/relays/stream', { token }), { signal: inbox.signal }),
      noParams,
    );
    for (const { response } of open) expect(response.status).toBe(200);
    expect(inboxResponse.status).toBe(200);
    await expectTooMany((await openEvents(runId, session)).response);
    await expectTooMany(await relayStream(new Request(apiRequest('GET', '/api/relays/stream', { token })), noParams));
    // Someone else is not held back by them.
    const other = await reader();
    const theirs = await openEvents(other.runId, { token: other.token });
    expect(theirs.response.status).toBe(200);
    for (const { client } of [...open, theirs]) client.abort();
    inbox.abort();
    expect(streamSlots().heldBy(user.id)).toBe(0);
    expect(streamSlots().heldBy(other.user.id)).toBe(0);
  });

  it('POST /api/chat over the cap is refused before the run starts', async () => {
    const { user, token } = await reader();
    const inboxes = Array.from({ length: CAP }, () => new AbortController());
    for (const inbox of inboxes) {
      const response = await relayStream(
        new Request(apiRequest('GET', '/api/relays/stream', { token }), { signal: inbox.signal }),
        noParams,
      );
      expect(response.status).toBe(200);
    }
    const { q } = server.rt();
    const before = (await q.runs.listRuns({ owner: user.id })).items.length;
    const refused = await chat(
      apiRequest('POST', '/api/chat', { token, json: { messages: [{ role: 'user', content: 'hello' }] } }),
      noParams,
    );
    await expectTooMany(refused);
    expect((await q.runs.listRuns({ owner: user.id })).items.length).toBe(before);
    for (const inbox of inboxes) inbox.abort();
    expect(streamSlots().heldBy(user.id)).toBe(0);
  });
});

describe('every way a stream ends gives its place back', () => {
  it('a finished run: the server ends the stream', async () => {
    const { user, token, runId } = await reader('done');
    for (let i = 0; i < CAP + 2; i++) {
      const { response } = await openEvents(runId, { token });
      expect(response.status).toBe(200);
      await readToEnd(response);
    }
    expect(streamSlots().heldBy(user.id)).toBe(0);
  });

  it("access ended: the stream's token is revoked", async () => {
    const { user, token, runId } = await reader();
    const { q } = server.rt();
    const { response } = await openEvents(runId, { token });
    expect(streamSlots().heldBy(user.id)).toBe(1);
    const [row] = await q.tokens.listApiTokens({ userId: user.id });
    await q.tokens.revokeApiToken({ id: row!.id });
    expect(await readToEnd(response)).toContain('"code":"unauthorized"');
    expect(streamSlots().heldBy(user.id)).toBe(0);
  });

  it('a slow consumer: a client that leaves too much unread is dropped', async () => {
    const { user, token, runId } = await reader();
    const { response } = await openEvents(runId, { token });
    const { runs } = server.rt();
    // Live events are never held back: 9 MB arrive while the client reads nothing.
    const content = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 9; i++)
      await runs.log.append(runId, [{ type: 'text' as const, runId, agentId: 'main', parents: [], content }]);
    expect(await readToEnd(response)).toContain('"code":"slow_consumer"');
    expect(streamSlots().heldBy(user.id)).toBe(0);
  }, 60_000);

  it('an error thrown while the stream is set up', async () => {
    const { user, token, runId } = await reader();
    const { runs } = server.rt();
    const spy = vi.spyOn(runs, 'subscribe').mockRejectedValue(new Error('the log is not readable'));
    try {
      const { response } = await openEvents(runId, { token });
      expect(response.status).toBe(200);
      expect(await readToEnd(response)).toContain('"code":"internal"');
    } finally {
      spy.mockRestore();
    }
    expect(streamSlots().heldBy(user.id)).toBe(0);
  });

  it('an error thrown before the stream exists (POST /api/chat whose run cannot start)', async () => {
    const { user, token } = await reader();
    const { runs } = server.rt();
    const spy = vi.spyOn(runs, 'start').mockRejectedValue(new Error('the database went away'));
    try {
      const response = await chat(
        apiRequest('POST', '/api/chat', { token, json: { messages: [{ role: 'user', content: 'hello' }] } }),
        noParams,
      );
      expect(response.status).toBe(500);
    } finally {
      spy.mockRestore();
    }
    expect(streamSlots().heldBy(user.id)).toBe(0);
  });
});
