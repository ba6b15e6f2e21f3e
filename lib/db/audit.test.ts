import { expect, it } from 'vitest';
import { describeStores } from './test-support/stores';

const t0 = Date.parse('2026-03-01T12:00:00.000Z');

describeStores('audit', (store) => {
  async function seed() {
    const { q } = store();
    const rows = [];
    for (let i = 0; i < 12; i++) {
      rows.push(
        await q.audit.recordAudit({
          id: `a${String(i).padStart(2, '0')}`,
          // Pairs share a timestamp, so the id has to break ties.
          at: new Date(t0 + Math.floor(i / 2) * 1000),
          kind: 'decision',
          runId: i < 6 ? 'r1' : 'r2',
          tool: i % 3 === 0 ? 'bash' : 'read_file',
          params: { i },
          action: i % 4 === 0 ? 'deny' : 'allow',
          decidedBy: i % 2 ? 'alice' : 'policy',
          waitMs: i * 10,
        }),
      );
    }
    return rows;
  }

  it('records an entry with defaults', async () => {
    const { q } = store();
    const row = await q.audit.recordAudit({ kind: 'policy_edit', decidedBy: 'alice', details: { version: 3 } });
    expect(row).toMatchObject({
      kind: 'policy_edit',
      decidedBy: 'alice',
      details: { version: 3 },
      runId: null,
      tool: null,
    });
    expect(row.at).toBeInstanceOf(Date);
    expect(Math.abs(row.at.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('pages newest first without gaps or repeats, ties broken by id', async () => {
    const { q } = store();
    await seed();
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await q.audit.listAudit({ limit: 5, cursor });
      ids.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(ids).toEqual(Array.from({ length: 12 }, (_, i) => `a${String(11 - i).padStart(2, '0')}`));
  });

  it('filters by run, tool, action, decider, kind and time range', async () => {
    const { q } = store();
    await seed();
    const ids = async (filter: Parameters<typeof q.audit.listAudit>[0]) =>
      (await q.audit.listAudit(filter)).items.map((r) => r.id);
    expect(await ids({ runId: 'r1' })).toEqual(['a05', 'a04', 'a03', 'a02', 'a01', 'a00']);
    expect(await ids({ tool: 'bash' })).toEqual(['a09', 'a06', 'a03', 'a00']);
    expect(await ids({ action: 'deny' })).toEqual(['a08', 'a04', 'a00']);
    expect(await ids({ decidedBy: 'alice', runId: 'r2' })).toEqual(['a11', 'a09', 'a07']);
    expect(await ids({ tool: 'bash', action: 'allow', decidedBy: 'alice' })).toEqual(['a09', 'a03']);
    expect(await ids({ kind: 'grant_created' })).toEqual([]);
    expect(await ids({ from: new Date(t0 + 2000), to: new Date(t0 + 4000) })).toEqual(['a07', 'a06', 'a05', 'a04']);
    const page = await q.audit.listAudit({ decidedBy: 'policy', limit: 2 });
    expect(page.items.map((r) => r.id)).toEqual(['a10', 'a08']);
    expect(
      (await q.audit.listAudit({ decidedBy: 'policy', limit: 10, cursor: page.nextCursor })).items.map((r) => r.id),
    ).toEqual(['a06', 'a04', 'a02', 'a00']);
  });

  it('keeps the params, rule and wait time of a decision', async () => {
    const { q } = store();
    await q.audit.recordAudit({
      kind: 'decision',
      runId: 'r1',
      sessionId: 's1',
      agentId: 'main',
      tool: 'bash',
      params: { command: 'rm -rf /' },
      action: 'deny',
      reason: 'matched_rule',
      rule: { index: 1, action: 'deny' },
      decidedBy: 'policy',
      waitMs: 0,
    });
    const [row] = (await q.audit.listAudit({ runId: 'r1' })).items;
    expect(row).toMatchObject({
      params: { command: 'rm -rf /' },
      rule: { index: 1, action: 'deny' },
      waitMs: 0,
      sessionId: 's1',
      agentId: 'main',
    });
  });
});
