import { expect, it } from 'vitest';
import type { Policy } from '../policy/types';
import { describeStores } from './test-support/stores';
import type { NewShadowDiff } from './shadow';

const policy = (tool: string): Policy => ({ defaultAction: 'ask', rules: [{ action: 'deny', tool }] });
const diff = (tool: string, at: number, liveAction = 'allow', shadowAction = 'deny'): NewShadowDiff => ({
  at: new Date(at),
  runId: 'run-1',
  agentId: 'main',
  tool,
  params: { command: `${tool} ${at}` },
  liveAction,
  shadowAction,
  live: { action: liveAction },
  shadow: { action: shadowAction },
});

describeStores('shadow', (store) => {
  it('holds at most one shadow: setting another replaces it and its differences', async () => {
    const { q } = store();
    expect(await q.shadow.getShadow()).toBeUndefined();
    const first = await q.shadow.setShadow({ policy: policy('bash'), baseVersion: 3, createdBy: 'alice', note: 'try' });
    expect(first).toMatchObject({
      policy: policy('bash'),
      baseVersion: 3,
      createdBy: 'alice',
      note: 'try',
      compared: 0,
      same: 0,
      dropped: 0,
    });
    await q.shadow.recordShadowBatch({
      shadowId: first.id,
      diffs: [diff('bash', 1000)],
      compared: 5,
      same: 4,
      dropped: 0,
    });
    const second = await q.shadow.setShadow({ policy: policy('fetch_url'), baseVersion: 4, createdBy: 'bob' });
    expect(second.id).not.toBe(first.id);
    expect(await q.shadow.getShadow()).toMatchObject({
      id: second.id,
      policy: policy('fetch_url'),
      compared: 0,
      same: 0,
    });
    expect((await q.shadow.listShadowDiffs({ shadowId: first.id })).items).toEqual([]);
  });

  it('concurrent sets leave exactly one shadow', async () => {
    const { q } = store();
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        q.shadow.setShadow({ policy: policy(`t${i}`), baseVersion: 1, createdBy: `u${i}` }),
      ),
    );
    const { db } = store();
    const rows = await db.select().from((await import('./schema')).policyShadow);
    expect(rows).toHaveLength(1);
  });

  it('records a batch only while its shadow is current, and counts identical decisions without storing them', async () => {
    const { q } = store();
    const shadow = await q.shadow.setShadow({ policy: policy('bash'), baseVersion: 1, createdBy: 'alice' });
    expect(
      await q.shadow.recordShadowBatch({
        shadowId: shadow.id,
        diffs: [diff('bash', 1000), diff('bash', 2000)],
        compared: 10,
        same: 8,
        dropped: 1,
      }),
    ).toBe(2);
    expect(await q.shadow.recordShadowBatch({ shadowId: shadow.id, diffs: [], compared: 3, same: 3, dropped: 0 })).toBe(
      0,
    );
    expect(await q.shadow.getShadow()).toMatchObject({ compared: 13, same: 11, dropped: 1 });
    expect(
      await q.shadow.recordShadowBatch({
        shadowId: 'gone',
        diffs: [diff('bash', 3000)],
        compared: 1,
        same: 0,
        dropped: 0,
      }),
    ).toBe(0);
    expect(await q.shadow.clearShadow()).toBe(true);
    expect(
      await q.shadow.recordShadowBatch({
        shadowId: shadow.id,
        diffs: [diff('bash', 4000)],
        compared: 1,
        same: 0,
        dropped: 0,
      }),
    ).toBe(0);
    expect(await q.shadow.clearShadow()).toBe(false);
  });

  it('stores at most maxStored differences per shadow, and still counts the rest', async () => {
    const { q } = store();
    const { id } = await q.shadow.setShadow({ policy: policy('bash'), baseVersion: 1, createdBy: 'alice' });
    const batch = (from: number) => [0, 1, 2].map((i) => diff('bash', (from + i) * 1000));
    expect(
      await q.shadow.recordShadowBatch({ shadowId: id, diffs: batch(1), compared: 3, same: 0, dropped: 0 }, 4),
    ).toBe(3);
    expect(
      await q.shadow.recordShadowBatch({ shadowId: id, diffs: batch(4), compared: 4, same: 1, dropped: 0 }, 4),
    ).toBe(1);
    expect(
      await q.shadow.recordShadowBatch({ shadowId: id, diffs: batch(7), compared: 3, same: 0, dropped: 0 }, 4),
    ).toBe(0);
    expect((await q.shadow.listShadowDiffs({ shadowId: id })).items).toHaveLength(4);
    expect(await q.shadow.getShadow()).toMatchObject({ compared: 10, same: 1 });
  });

  it('groups differences by (live -> shadow, tool) with the newest examples, and pages the recent ones', async () => {
    const { q } = store();
    const { id } = await q.shadow.setShadow({ policy: policy('bash'), baseVersion: 1, createdBy: 'alice' });
    const diffs = [
      ...[1, 2, 3, 4, 5].map((i) => diff('bash', i * 1000)),
      diff('read_file', 6000, 'allow', 'ask'),
      diff('bash', 7000, 'ask', 'allow'),
    ];
    await q.shadow.recordShadowBatch({ shadowId: id, diffs, compared: diffs.length, same: 0, dropped: 0 });
    const groups = await q.shadow.summarizeShadowDiffs({ shadowId: id, examples: 2 });
    expect(groups.map((g) => [g.liveAction, g.shadowAction, g.tool, g.count, g.examples.length])).toEqual([
      ['allow', 'deny', 'bash', 5, 2],
      ['allow', 'ask', 'read_file', 1, 1],
      ['ask', 'allow', 'bash', 1, 1],
    ]);
    expect(groups[0]!.examples.map((e) => e.at.getTime())).toEqual([5000, 4000]);
    expect(groups[0]!.examples[0]).toMatchObject({
      runId: 'run-1',
      agentId: 'main',
      params: { command: 'bash 5000' },
      live: { action: 'allow' },
    });
    const first = await q.shadow.listShadowDiffs({ shadowId: id, limit: 4 });
    expect(first.items.map((e) => e.at.getTime())).toEqual([7000, 6000, 5000, 4000]);
    const rest = await q.shadow.listShadowDiffs({ shadowId: id, limit: 4, cursor: first.nextCursor });
    expect(rest.items.map((e) => e.at.getTime())).toEqual([3000, 2000, 1000]);
    expect(rest.nextCursor).toBeUndefined();
  });
});
