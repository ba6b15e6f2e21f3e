import { expect, it } from 'vitest';
import { RunNotFoundError } from './errors';
import { describeStores } from './test-support/stores';

describeStores('events', (store) => {
  it("numbers a run's events 1, 2, 3 and lists them after a seq", async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    await q.runs.createRun({ id: 'r2', sessionId: 's' });
    const a = await q.events.appendEvent({ runId: 'r1', type: 'text', data: { delta: 'he' } });
    const b = await q.events.appendEvent({ runId: 'r1', type: 'text', data: { delta: 'llo' } });
    const other = await q.events.appendEvent({ runId: 'r2', type: 'done', data: {} });
    const c = await q.events.appendEvent({ runId: 'r1', type: 'done', data: { finishReason: 'stop' } });
    expect([a.seq, b.seq, c.seq, other.seq]).toEqual([1, 2, 3, 1]);
    expect(a).toMatchObject({ runId: 'r1', type: 'text', data: { delta: 'he' } });
    expect((await q.events.listEvents({ runId: 'r1' })).map((e) => e.seq)).toEqual([1, 2, 3]);
    expect((await q.events.listEvents({ runId: 'r1', afterSeq: 1 })).map((e) => e.type)).toEqual(['text', 'done']);
    expect((await q.events.listEvents({ runId: 'r1', afterSeq: 0, limit: 2 })).map((e) => e.seq)).toEqual([1, 2]);
    expect((await q.runs.getRun({ id: 'r1' }))?.lastEventSeq).toBe(3);
  });

  it('appends a batch in order with consecutive seqs', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    await q.events.appendEvent({ runId: 'r1', type: 'agent_start', data: {} });
    const rows = await q.events.appendEvents({
      runId: 'r1',
      events: ['a', 'b', 'c'].map((delta) => ({ type: 'text', data: { delta } })),
    });
    expect(rows.map((e) => [e.seq, e.data.delta])).toEqual([
      [2, 'a'],
      [3, 'b'],
      [4, 'c'],
    ]);
    expect(await q.events.appendEvents({ runId: 'r1', events: [] })).toEqual([]);
  });

  it('stores what jsonb refuses (a NUL, a lone surrogate: a tool output) as U+FFFD, returned as stored', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    const output = 'a\u0000b \ud83d c \ud83d\ude00';
    const [row] = await q.events.appendEvents({
      runId: 'r1',
      events: [{ type: 'tool_result', data: { output, 'k\u0000': 1 } }],
      audit: [{ kind: 'decision', runId: 'r1', tool: 'bash', params: { command: output }, action: 'allow' }],
    });
    const kept = 'a\ufffdb \ufffd c \ud83d\ude00';
    expect(row!.data).toEqual({ output: kept, 'k\ufffd': 1 });
    expect((await q.events.listEvents({ runId: 'r1' }))[0]!.data).toEqual({ output: kept, 'k\ufffd': 1 });
    expect((await q.audit.listAudit({})).items.find((a) => a.runId === 'r1')?.params).toEqual({ command: kept });
  });

  it('keeps seqs gapless and unique under 50 concurrent appends', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    const rows = await Promise.all(
      Array.from({ length: 50 }, (_, i) => q.events.appendEvent({ runId: 'r1', type: 'text', data: { i } })),
    );
    expect(rows.map((r) => r.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const listed = await q.events.listEvents({ runId: 'r1' });
    expect(listed.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(listed.map((e) => e.data.i)).size).toBe(50);
  });

  it('refuses events for an unknown run and leaves no trace', async () => {
    const { q } = store();
    await expect(q.events.appendEvent({ runId: 'ghost', type: 'text', data: {} })).rejects.toBeInstanceOf(
      RunNotFoundError,
    );
    expect(await q.events.listEvents({ runId: 'ghost' })).toEqual([]);
  });

  it('appends in one statement: createdAt is a Date, a batch keeps its order', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    const rows = await q.events.appendEvents({
      runId: 'r1',
      events: ['x', 'y', 'z'].map((delta) => ({ type: 'text', data: { delta, nested: { n: [1, null, 'é'] } } })),
    });
    expect(rows.map((r) => [r.seq, r.data.delta])).toEqual([
      [1, 'x'],
      [2, 'y'],
      [3, 'z'],
    ]);
    expect(rows[0]!.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(rows[0]!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
    expect(rows[1]!.data).toEqual({ delta: 'y', nested: { n: [1, null, 'é'] } });
    const [listed] = await q.events.listEvents({ runId: 'r1', limit: 1 });
    expect(listed).toEqual(rows[0]);
  });

  it('returns each event as a later read gives it, values JSON changes included, and not the caller’s object', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    const data = { at: new Date('2024-01-02T03:04:05.678Z'), gone: undefined, n: 1.5, list: [undefined, -0] };
    const rows = await q.events.appendEvents({
      runId: 'r1',
      events: [
        { type: 'first', data },
        { type: 'second', data: { long_key_first: 1, k: 2 } },
      ],
    });
    expect(rows.map((r) => [r.seq, r.type])).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
    expect(rows[0]!.data).toStrictEqual({ at: '2024-01-02T03:04:05.678Z', n: 1.5, list: [null, 0] });
    expect(rows[0]!.data).not.toBe(data);
    expect(await q.events.listEvents({ runId: 'r1' })).toEqual(rows);
  });

  it('stores a status change and audit rows in the same statement as the event', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    const row = await q.events.appendEvent({
      runId: 'r1',
      type: 'relay',
      data: { id: 'x' },
      status: { to: 'waiting', ifStatus: ['running', 'waiting'] },
      audit: [
        {
          kind: 'decision',
          runId: 'r1',
          sessionId: 's',
          tool: 'bash',
          params: { command: 'ls' },
          action: 'ask',
          reason: 'r',
          rule: { index: 0 },
          waitMs: 12,
          details: { a: 1 },
        },
        { id: 'fixed', kind: 'grant_created', runId: 'r1', decidedBy: 'u', at: new Date('2024-01-02T03:04:05.678Z') },
      ],
    });
    expect(row.seq).toBe(1);
    const run = await q.runs.getRun({ id: 'r1' });
    expect(run).toMatchObject({ status: 'waiting', lastEventSeq: 1 });
    const { items } = await q.audit.listAudit({ runId: 'r1' });
    expect(items).toHaveLength(2);
    expect(items.find((a) => a.kind === 'decision')).toMatchObject({
      sessionId: 's',
      tool: 'bash',
      params: { command: 'ls' },
      action: 'ask',
      rule: { index: 0 },
      waitMs: 12,
      details: { a: 1 },
      decidedBy: null,
    });
    expect(items.find((a) => a.id === 'fixed')?.at.toISOString()).toBe('2024-01-02T03:04:05.678Z');
    // The condition is honoured: a done run stays done, the event is still appended.
    await q.runs.updateRun({ id: 'r1', status: 'done' });
    const next = await q.events.appendEvent({
      runId: 'r1',
      type: 'relay_resolved',
      data: {},
      status: { to: 'running', ifStatus: ['waiting'] },
    });
    expect(next.seq).toBe(2);
    expect((await q.runs.getRun({ id: 'r1' }))?.status).toBe('done');
    await q.events.appendEvent({ runId: 'r1', type: 'x', data: {}, status: { to: 'failed' } });
    expect((await q.runs.getRun({ id: 'r1' }))?.status).toBe('failed');
  });

  it('an append to an unknown run records no audit row either', async () => {
    const { q } = store();
    await expect(
      q.events.appendEvent({
        runId: 'ghost',
        type: 'tool_call',
        data: {},
        audit: [{ kind: 'decision', runId: 'ghost' }],
      }),
    ).rejects.toBeInstanceOf(RunNotFoundError);
    expect((await q.audit.listAudit({ runId: 'ghost' })).items).toEqual([]);
  });

  it('rolls back the whole append when one part fails (numbers and status come back)', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    await q.audit.recordAudit({ id: 'dup', kind: 'decision' });
    await expect(
      q.events.appendEvent({
        runId: 'r1',
        type: 't',
        data: {},
        status: { to: 'waiting' },
        audit: [{ id: 'dup', kind: 'decision' }],
      }),
    ).rejects.toThrow();
    expect(await q.runs.getRun({ id: 'r1' })).toMatchObject({ status: 'running', lastEventSeq: 0 });
    expect(await q.events.listEvents({ runId: 'r1' })).toEqual([]);
    expect((await q.events.appendEvent({ runId: 'r1', type: 't', data: {} })).seq).toBe(1);
  });

  it('claims a tool execution in the same statement as the event deciding it: the first claim wins, and a missing run claims nothing', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r-claim', sessionId: 's' });
    const first = await q.events.appendEventsClaiming({
      runId: 'r-claim',
      events: [{ type: 'tool_call', data: { toolCallId: 'c1' } }],
      claimExecution: { toolCallId: 'c1' },
    });
    expect(first.claimed).toBe(true);
    expect(first.rows.map((r) => r.type)).toEqual(['tool_call']);
    expect(await q.toolExecutions.getToolExecution({ runId: 'r-claim', toolCallId: 'c1' })).toMatchObject({
      status: 'claimed',
    });
    // The same call id again (a retried request): recorded, but the claim is lost, so it must not run.
    const again = await q.events.appendEventsClaiming({
      runId: 'r-claim',
      events: [{ type: 'tool_call', data: { toolCallId: 'c1' } }],
      claimExecution: { toolCallId: 'c1' },
    });
    expect(again.claimed).toBe(false);
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r-claim', toolCallId: 'c1' })).toBe(false);
    await expect(
      q.events.appendEventsClaiming({
        runId: 'no-such-run',
        events: [{ type: 'tool_call', data: {} }],
        claimExecution: { toolCallId: 'c9' },
      }),
    ).rejects.toThrow();
    expect(await q.toolExecutions.getToolExecution({ runId: 'no-such-run', toolCallId: 'c9' })).toBeUndefined();
  });

  it('finishes a claimed tool execution in the same statement as the event reporting its result, and only a claimed one', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r-fin', sessionId: 's' });
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r-fin', toolCallId: 'c1' })).toBe(true);
    const result = { output: 'done', isError: false };
    const rows = await q.events.appendEvents({
      runId: 'r-fin',
      events: [{ type: 'tool_result', data: { toolCallId: 'c1' } }],
      finishExecution: { toolCallId: 'c1', result },
    });
    expect(rows.map((r) => r.type)).toEqual(['tool_result']);
    expect(await q.toolExecutions.getToolExecution({ runId: 'r-fin', toolCallId: 'c1' })).toMatchObject({
      status: 'done',
      result,
      finishedAt: expect.any(Date),
    });
    // Done already, or never claimed: left as it is (the event is still recorded).
    await q.events.appendEvents({
      runId: 'r-fin',
      events: [{ type: 'tool_result', data: {} }],
      finishExecution: { toolCallId: 'c1', result: { output: 'again' } },
    });
    expect((await q.toolExecutions.getToolExecution({ runId: 'r-fin', toolCallId: 'c1' }))?.result).toEqual(result);
    await q.events.appendEvents({
      runId: 'r-fin',
      events: [{ type: 'tool_result', data: {} }],
      finishExecution: { toolCallId: 'never-claimed', result },
    });
    expect(await q.toolExecutions.getToolExecution({ runId: 'r-fin', toolCallId: 'never-claimed' })).toBeUndefined();
  });

  it('claims and finishes one call in one statement: the claim is stored done, and only if it was free', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r-both', sessionId: 's' });
    const result = { output: 'ran', isError: false };
    const both = await q.events.appendEventsClaiming({
      runId: 'r-both',
      events: [
        { type: 'tool_call', data: { toolCallId: 'c1' } },
        { type: 'tool_result', data: { toolCallId: 'c1' } },
      ],
      claimExecution: { toolCallId: 'c1' },
      finishExecution: { toolCallId: 'c1', result },
    });
    expect(both.claimed).toBe(true);
    expect(both.rows.map((r) => r.type)).toEqual(['tool_call', 'tool_result']);
    expect(await q.toolExecutions.getToolExecution({ runId: 'r-both', toolCallId: 'c1' })).toMatchObject({
      status: 'done',
      result,
      finishedAt: expect.any(Date),
    });
    // Claimed already: not claimed again, and the stored result stays.
    const again = await q.events.appendEventsClaiming({
      runId: 'r-both',
      events: [{ type: 'tool_result', data: {} }],
      claimExecution: { toolCallId: 'c1' },
      finishExecution: { toolCallId: 'c1', result: { output: 'again' } },
    });
    expect(again.claimed).toBe(false);
    expect((await q.toolExecutions.getToolExecution({ runId: 'r-both', toolCallId: 'c1' }))?.result).toEqual(result);
    // A claim and the finish of another call: each as alone.
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r-both', toolCallId: 'c2' })).toBe(true);
    const other = await q.events.appendEventsClaiming({
      runId: 'r-both',
      events: [{ type: 'tool_call', data: {} }],
      claimExecution: { toolCallId: 'c3' },
      finishExecution: { toolCallId: 'c2', result },
    });
    expect(other.claimed).toBe(true);
    expect((await q.toolExecutions.getToolExecution({ runId: 'r-both', toolCallId: 'c2' }))?.status).toBe('done');
    expect((await q.toolExecutions.getToolExecution({ runId: 'r-both', toolCallId: 'c3' }))?.status).toBe('claimed');
  });

  it('finishes nothing when the append is fenced off (another owner holds the lease)', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r-fin2', sessionId: 's', status: 'running' });
    await q.leases.acquireLease({ runId: 'r-fin2', owner: 'b', ttlS: 30 });
    await q.toolExecutions.claimToolExecution({ runId: 'r-fin2', toolCallId: 'c1', leaseOwner: 'b' });
    await expect(
      q.events.appendEvents({
        runId: 'r-fin2',
        events: [{ type: 't', data: {} }],
        finishExecution: { toolCallId: 'c1', result: 1 },
        leaseOwner: 'a',
      }),
    ).rejects.toMatchObject({ code: 'conflict:lease_lost' });
    expect((await q.toolExecutions.getToolExecution({ runId: 'r-fin2', toolCallId: 'c1' }))?.status).toBe('claimed');
  });

  it('keeps a transcript of messages, numbered per run', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r1', sessionId: 's' });
    await q.messages.appendMessages({ runId: 'r1', messages: [{ role: 'user', content: 'list files' }] });
    const more = await q.messages.appendMessages({
      runId: 'r1',
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'list_files', input: {} }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', output: 'a.txt' }] },
      ],
    });
    expect(more.map((m) => m.seq)).toEqual([2, 3]);
    expect((await q.messages.listMessages({ runId: 'r1' })).map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect((await q.messages.listMessages({ runId: 'r1', afterSeq: 2 })).map((m) => m.content)).toEqual([
      [{ type: 'tool-result', toolCallId: 'c1', output: 'a.txt' }],
    ]);
    await expect(
      q.messages.appendMessages({ runId: 'ghost', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toBeInstanceOf(RunNotFoundError);
  });

  it('can announce an append from the same statement (NOTIFY with the last seq), also for an empty batch with effects', async () => {
    const { q } = store();
    await q.runs.createRun({ id: 'r-notify', sessionId: 's' });
    const rows = await q.events.appendEvents({
      runId: 'r-notify',
      events: [
        { type: 'text', data: {} },
        { type: 'done', data: {} },
      ],
      notifyChannel: 'gatehouse_events',
    });
    expect(rows.map((r) => r.seq)).toEqual([1, 2]);
    expect(
      await q.events.appendEvents({
        runId: 'r-notify',
        events: [],
        status: { to: 'done' },
        notifyChannel: 'gatehouse_events',
      }),
    ).toEqual([]);
    expect(await q.runs.getRun({ id: 'r-notify' })).toMatchObject({ status: 'done', lastEventSeq: 2 });
  });
});
