import { describe, expect, it } from 'vitest';
import { InvalidCursorError } from './errors';
import { decodeCursor, encodeCursor } from './pagination';
import { describeStores } from './test-support/stores';

describeStores('runs', (store) => {
  it('creates a run with defaults and reads it back', async () => {
    const { q } = store();
    const created = await q.runs.createRun({
      sessionId: 's1',
      title: 'hello',
      mode: 'default',
      state: { step: 0, messages: [] },
    });
    expect(created).toMatchObject({
      sessionId: 's1',
      status: 'running',
      title: 'hello',
      mode: 'default',
      lastEventSeq: 0,
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdAt).toBeInstanceOf(Date);
    expect(await q.runs.getRun({ id: created.id })).toEqual(created);
    expect(await q.runs.getRun({ id: 'missing' })).toBeUndefined();
  });

  it('updates status and state, and bumps updatedAt', async () => {
    const { q } = store();
    const run = await q.runs.createRun({ id: 'r1', sessionId: 's1' });
    const state = {
      step: 2,
      messages: [{ role: 'user', content: 'hi' }],
      pendingToolCalls: [{ toolCallId: 'c1', tool: 'bash', params: { command: 'ls' } }],
    };
    const updated = await q.runs.updateRun({ id: 'r1', status: 'waiting', state });
    expect(updated).toMatchObject({ id: 'r1', status: 'waiting', state, sessionId: 's1' });
    expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(run.updatedAt.getTime());
    expect(await q.runs.updateRun({ id: 'nope', status: 'done' })).toBeUndefined();
  });

  it('updates conditionally on the current status (a late "done" never overwrites "cancelled")', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's1' });
    expect(await q.runs.updateRun({ id: 'r1', status: 'cancelled', ifStatus: ['running', 'waiting'] })).toMatchObject({
      status: 'cancelled',
    });
    expect(await q.runs.updateRun({ id: 'r1', status: 'done', ifStatus: ['running', 'waiting'] })).toBeUndefined();
    expect((await q.runs.getRun({ id: 'r1' }))?.status).toBe('cancelled');
  });

  it('rejects an unknown status (CHECK constraint)', async () => {
    const { q } = store();
    await expect(q.runs.createRun({ sessionId: 's1', status: 'bogus' as never })).rejects.toThrow();
  });

  it('lists newest first with cursor pagination and filters', async () => {
    const { q } = store();
    for (let i = 0; i < 7; i++) {
      await q.runs.createRun({ id: `r${i}`, sessionId: i % 2 ? 'odd' : 'even', status: i < 3 ? 'done' : 'running' });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await q.runs.listRuns({ limit: 3, cursor });
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    const all = (await q.runs.listRuns({ limit: 100 })).items;
    expect(all.map((r) => r.id)).toEqual(seen);
    for (let i = 1; i < all.length; i++)
      expect(all[i - 1]!.createdAt.getTime()).toBeGreaterThanOrEqual(all[i]!.createdAt.getTime());
    expect((await q.runs.listRuns({ status: 'done' })).items.map((r) => r.id).sort()).toEqual(['r0', 'r1', 'r2']);
    expect((await q.runs.listRuns({ sessionId: 'odd', status: 'running' })).items.map((r) => r.id).sort()).toEqual([
      'r3',
      'r5',
    ]);
  });

  it('a session belongs to the owner of its first run, whoever added runs later', async () => {
    const { q } = store();
    expect(await q.runs.sessionOwner({ sessionId: 'new' })).toBeUndefined();
    await q.runs.createRun({ sessionId: 's-owned', owner: 'alice' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await q.runs.createRun({ sessionId: 's-owned', owner: 'the-admin' });
    expect(await q.runs.sessionOwner({ sessionId: 's-owned' })).toEqual({ owner: 'alice' });
  });

  it('refuses a cursor it did not hand out', async () => {
    const { q } = store();
    await expect(q.runs.listRuns({ cursor: 'garbage' })).rejects.toBeInstanceOf(InvalidCursorError);
  });
});

describe('pagination cursors', () => {
  it('round-trip a timestamp and an id', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    expect(decodeCursor(encodeCursor(at, 'abc'))).toEqual({ at, id: 'abc' });
  });
  it.each(['', 'x', Buffer.from('[1]').toString('base64url'), Buffer.from('["a","b"]').toString('base64url')])(
    'reject %j',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(InvalidCursorError);
    },
  );
});

describeStores('outside runs', (store) => {
  const key = { source: 'hook', owner: 'u1', agent: 'claude-code', externalId: 'cc-session-1' } as const;

  it('opens one run per owner, agent and outside session id, even for two first calls at once', async () => {
    const { q } = store();
    const [a, b] = await Promise.all([
      q.runs.openExternalRun({ ...key, title: '/home/me/project' }),
      q.runs.openExternalRun({ ...key, title: '/home/me/project' }),
    ]);
    expect(a.id).toBe(b.id);
    expect(a).toMatchObject({ source: 'hook', owner: 'u1', agent: 'claude-code', externalId: 'cc-session-1' });
    expect((await q.runs.openExternalRun({ ...key, title: 'again' })).id).toBe(a.id);
  });

  it('gives another user presenting the same session id a different run and session', async () => {
    const { q } = store();
    const mine = await q.runs.openExternalRun({ ...key, title: 'x' });
    const theirs = await q.runs.openExternalRun({ ...key, owner: 'u2', title: 'x' });
    expect(theirs.id).not.toBe(mine.id);
    expect(theirs.sessionId).not.toBe(mine.sessionId);
  });

  it('lists runs by source, and never offers an outside run for takeover', async () => {
    const { q } = store();
    const outside = await q.runs.openExternalRun({ ...key, title: 'x' });
    const own = await q.runs.createRun({ sessionId: 's' });
    expect((await q.runs.listRuns({ source: 'hook' })).items.map((r) => r.id)).toEqual([outside.id]);
    expect((await q.runs.listRuns({ source: 'agent' })).items.map((r) => r.id)).toEqual([own.id]);
    const candidates = (await q.leases.listTakeoverCandidates()).map((c) => c.runId);
    expect(candidates).toContain(own.id);
    expect(candidates).not.toContain(outside.id);
  });
});
