// GET /api/relays and GET /api/relays/:id: the inbox lists every pending relay the caller may
// decide, across runs, oldest deadline first, filtered and paginated; one relay is 404 when it is
// unknown or invisible to the caller, and shows who decided once it is decided.
import { describe, expect, it } from 'vitest';
import { createApiToken, createUser } from '@/lib/auth';
import type { InboxPage, InboxRelay, RelayRequest } from '@/lib/contract';
import { apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { GET as listRelays } from './route';
import { GET as getRelay } from './[relayId]/route';

const server = withRouteRuntime('gatehouse-relays-');
let n = 0;

async function raise(
  runId: string,
  owner: string | undefined,
  overrides: Partial<RelayRequest> = {},
): Promise<RelayRequest> {
  const q = server.rt().q;
  if (!(await q.runs.getRun({ id: runId })))
    await q.runs.createRun({ id: runId, sessionId: `s-${runId}`, status: 'waiting', ...(owner ? { owner } : {}) });
  n += 1;
  const now = Date.now();
  const request: RelayRequest = {
    id: `inbox-${n}`,
    kind: 'permission',
    runId,
    sessionId: `s-${runId}`,
    agentId: 'main',
    parents: [],
    toolCallId: `call_${n}`,
    tool: 'bash',
    params: { command: `echo ${n}` },
    risk: 'write',
    decision: { action: 'ask', reason: 'risk_default', explanation: 'bash asks' },
    suggestedRules: [],
    prompt: 'Run bash?',
    createdAt: now,
    expiresAt: now + 60_000 - n * 1000,
    ...overrides,
  };
  await q.relays.insertRelay({ request });
  return request;
}

async function userWithToken(role: 'user' | 'approver') {
  const q = server.rt().q;
  const user = await createUser({ q, username: `${role}-inbox-${++n}`, role });
  return { user, token: (await createApiToken({ q, userId: user.id, name: 't' })).token };
}

const list = async (query: string, token?: string) => {
  const response = await listRelays(apiRequest('GET', `/api/relays${query}`, token ? { token } : {}), {
    params: Promise.resolve({}),
  });
  return { status: response.status, body: (await response.json()) as InboxPage & { error?: { fields: unknown[] } } };
};
const one = (id: string, token?: string) =>
  getRelay(apiRequest('GET', `/api/relays/${id}`, token ? { token } : {}), {
    params: Promise.resolve({ relayId: id }),
  });

describe('GET /api/relays', () => {
  it('lists pending relays across runs, oldest deadline first, with cursor pagination and filters', async () => {
    const a = await raise('run-a', undefined);
    const b = await raise('run-b', undefined, { tool: 'write_file', risk: 'destructive' });
    const c = await raise('run-a', undefined);
    const all = await list('?status=pending');
    expect(all.body.items.map((r) => r.request.id)).toEqual([c.id, b.id, a.id]);
    expect(all.body.total).toBe(3);
    const first = await list('?limit=2');
    expect(first.body.items.map((r) => r.request.id)).toEqual([c.id, b.id]);
    const second = await list(`?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items.map((r) => r.request.id)).toEqual([a.id]);
    expect(second.body.nextCursor).toBeNull();
    expect((await list('?runId=run-a')).body.items.map((r) => r.request.id)).toEqual([c.id, a.id]);
    expect((await list('?tool=write_file')).body.items.map((r) => r.request.id)).toEqual([b.id]);
    expect((await list('?risk=destructive')).body.items.map((r) => r.request.id)).toEqual([b.id]);
    expect((await list(`?sessionId=s-run-b&agentId=main`)).body.items.map((r) => r.request.id)).toEqual([b.id]);
  });

  it('a user sees only the relays of their own runs; an approver sees all', async () => {
    const owner = await userWithToken('user');
    const other = await userWithToken('user');
    const approver = await userWithToken('approver');
    const mine = await raise(`run-owned-${n}`, owner.user.id);
    const ids = async (token: string) => (await list('?limit=200', token)).body.items.map((r) => r.request.id);
    expect(await ids(owner.token)).toEqual([mine.id]);
    expect(await ids(other.token)).toEqual([]);
    expect(await ids(approver.token)).toContain(mine.id);
    expect((await one(mine.id, other.token)).status).toBe(404);
    expect((await one(mine.id, owner.token)).status).toBe(200);
  });

  it('bad filters are a 400 naming the parameter', async () => {
    const response = await list('?risk=huge&limit=0');
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body.error?.fields)).toMatch(/risk|limit/);
    expect((await list('?cursor=nonsense')).status).toBe(400);
  });
});

describe('GET /api/relays/:id', () => {
  it('404 for an unknown relay; a decided one says by whom and when', async () => {
    expect((await one('no-such-relay')).status).toBe(404);
    const r = await raise('run-decided', undefined);
    await server.rt().q.relays.resolveRelay({ id: r.id, status: 'approved', decidedBy: 'bob' });
    const body = (await (await one(r.id)).json()) as InboxRelay;
    expect(body).toMatchObject({ status: 'approved', decidedBy: 'bob' });
    expect(body.decidedAt).toEqual(expect.any(String));
    expect((await list('?runId=run-decided')).body.items).toEqual([]);
  });
});

describe('a relay whose rule names approvers, once one approved an edit', () => {
  it('the list and its page carry the approvals so far and the edited call, the one the next approval approves', async () => {
    const request = await raise(`run-quorum-${++n}`, undefined, { approvals: { count: 2 } });
    const edit = { command: 'echo edited' };
    await server.rt().q.quorum.editQuorumApproval({
      id: request.id,
      user: 'ann',
      role: 'approver',
      response: { approved: true, params: edit },
      params: edit,
    });
    const { body } = await list('');
    const listed = body.items.find((item) => item.request.id === request.id);
    expect(listed?.progress).toMatchObject({ needed: 2, approvals: [{ by: 'ann' }], params: edit });
    // The request stays the agent's own call; what is shown is the edit (shownRequest).
    expect(listed?.request.params).toEqual(request.params);
    const page = (await (await one(request.id)).json()) as InboxRelay;
    expect(page.progress?.params).toEqual(edit);
  });
});
