import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { describeStores } from './test-support/stores';

describeStores('conversations', (store) => {
  it('one row per session: its first run names owner and title, its latest run the order', async () => {
    const { q, db } = store();
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
    await q.runs.createRun({ id: 'a1', sessionId: 'sa', owner: 'alice', title: 'first of a' });
    await q.runs.createRun({ id: 'b1', sessionId: 'sb', owner: 'bob', title: 'first of b' });
    // An admin's run added to alice's session keeps the session hers.
    await q.runs.createRun({ id: 'a2', sessionId: 'sa', owner: 'admin', title: 'second of a', status: 'done' });
    // Creation times made distinct and explicit (runs created in one millisecond would tie).
    for (const [id, s] of [
      ['a1', 1],
      ['b1', 2],
      ['a2', 3],
    ] as const)
      await db.execute(sqlSetCreated(id, at(s)));

    const all = await q.conversations.listConversations();
    expect(all.items.map((c) => [c.sessionId, c.owner, c.title, c.runCount, c.lastRunId, c.lastStatus])).toEqual([
      ['sa', 'alice', 'first of a', 2, 'a2', 'done'],
      ['sb', 'bob', 'first of b', 1, 'b1', 'running'],
    ]);
    expect(all.items[0]!.createdAt).toEqual(at(1));
    expect(all.items[0]!.lastRunAt).toEqual(at(3));

    expect((await q.conversations.listConversations({ owner: 'bob' })).items.map((c) => c.sessionId)).toEqual(['sb']);
    // The admin added a run to alice's session: it is not theirs.
    expect((await q.conversations.listConversations({ owner: 'admin' })).items).toEqual([]);
  });

  it('pages with a cursor: every session once, newest activity first', async () => {
    const { q, db } = store();
    for (let i = 0; i < 5; i++) await q.runs.createRun({ id: `r${i}`, sessionId: `s${i}`, owner: 'u' });
    // Two sessions at the same instant: the session id breaks the tie.
    await db.execute(sqlSetCreated('r3', new Date(Date.UTC(2026, 0, 1))));
    await db.execute(sqlSetCreated('r4', new Date(Date.UTC(2026, 0, 1))));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await q.conversations.listConversations({ owner: 'u', limit: 2, cursor });
      seen.push(...page.items.map((c) => c.sessionId));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen.slice(-2)).toEqual(['s4', 's3']);
  });
});

function sqlSetCreated(id: string, at: Date) {
  return sql`UPDATE runs SET created_at = ${at.toISOString()}::timestamptz WHERE id = ${id}`;
}
