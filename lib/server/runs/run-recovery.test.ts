// Recovery after a restart: one run that cannot be resumed fails alone, and the others resume.
import { expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import { followRun, testRunManager, useTempWorkspace } from '../test-support/run-manager';

const workspace = useTempWorkspace('gatehouse-recovery-');

describeStores('recovering runs', (store) => {
  it('a run whose resume throws is failed and reported; the other runs are resumed all the same', async () => {
    const { q } = store();
    // Permissions stored by an older version that no longer validate: the run cannot start again.
    for (const [id, permissions] of [
      ['broken', { rules: 'not rules' }],
      ['sound', undefined],
    ] as const)
      await q.runs.createRun({
        id,
        sessionId: `s-${id}`,
        status: 'running',
        state: { messages: [{ role: 'user', content: 'hello' }], permissions },
      });
    const reported: string[] = [];
    const m = testRunManager(q, workspace());
    (m as unknown as { report: (error: Error) => void }).report = (error) => reported.push(error.message);
    expect(await m.recover()).toEqual(['sound']);
    const events = await followRun(m, 'sound');
    expect(events.at(-1)).toMatchObject({ type: 'done', finishReason: 'stop' });
    expect((await q.runs.getRun({ id: 'broken' }))?.status).toBe('failed');
    expect(reported).toEqual([expect.stringContaining('Run broken could not be resumed')]);
    const broken = await followRun(m, 'broken');
    expect(broken.at(-1)).toMatchObject({ type: 'done', finishReason: 'error' });
  });
});
