import { expect, it } from 'vitest';
import { describeStores } from './test-support/stores';

describeStores('tool executions', (store) => {
  it('lets only the first claimer run a tool call, then stores its result', async () => {
    const { q } = store();
    const key = { runId: 'r1', toolCallId: 'call_1' };
    expect(await q.toolExecutions.claimToolExecution(key)).toBe(true);
    expect(await q.toolExecutions.claimToolExecution(key)).toBe(false);
    expect(await q.toolExecutions.getToolExecution(key)).toMatchObject({
      status: 'claimed',
      result: null,
      finishedAt: null,
    });
    const done = await q.toolExecutions.finishToolExecution({ ...key, result: { output: 'ok', isError: false } });
    expect(done).toMatchObject({ status: 'done', result: { output: 'ok', isError: false } });
    expect(done?.finishedAt).toBeInstanceOf(Date);
    expect(await q.toolExecutions.finishToolExecution({ ...key, result: 'again' })).toBeUndefined();
    expect((await q.toolExecutions.getToolExecution(key))?.result).toEqual({ output: 'ok', isError: false });
    expect(await q.toolExecutions.claimToolExecution(key)).toBe(false);
  });

  it('stores an output holding a NUL with U+FFFD in its place (the claim is still finished)', async () => {
    const { q } = store();
    const key = { runId: 'r1', toolCallId: 'call_nul' };
    await q.toolExecutions.claimToolExecution(key);
    const done = await q.toolExecutions.finishToolExecution({ ...key, result: { output: 'a\u0000b', isError: false } });
    expect(done).toMatchObject({ status: 'done', result: { output: 'a\ufffdb', isError: false } });
  });

  it('has exactly one winner among 50 concurrent claims', async () => {
    const { q } = store();
    const wins = await Promise.all(
      Array.from({ length: 50 }, () => q.toolExecutions.claimToolExecution({ runId: 'r1', toolCallId: 'call_x' })),
    );
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('keys executions by run: the same call id in another run is another call', async () => {
    const { q } = store();
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r1', toolCallId: 'call_0' })).toBe(true);
    expect(await q.toolExecutions.claimToolExecution({ runId: 'r2', toolCallId: 'call_0' })).toBe(true);
    expect(await q.toolExecutions.getToolExecution({ runId: 'r3', toolCallId: 'call_0' })).toBeUndefined();
    expect(
      await q.toolExecutions.finishToolExecution({ runId: 'r3', toolCallId: 'call_0', result: 1 }),
    ).toBeUndefined();
    expect((await q.toolExecutions.listToolExecutions({ runId: 'r1' })).map((e) => e.toolCallId)).toEqual(['call_0']);
  });
});
