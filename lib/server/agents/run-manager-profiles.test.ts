// The chat request's `agent`, `tools` and `model` fields, and switching a run's mode, on both
// stores: a profile narrows the tools the model is offered; a bad name is a 400 naming the field;
// a mode switch is stored, announced, and refused once the run has finished.
import { expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import type { LoggedEvent } from '../../contract';
import type { RunManager } from '../runs/run-manager';
import { followRun, testRunManager, useTempWorkspace, ofType } from '../test-support/run-manager';

const workspace = useTempWorkspace('gatehouse-profiles-');

describeStores('RunManager: agent profiles, tools, model, mode', (store) => {
  const manager = () => testRunManager(store().q, workspace());
  const follow = (m: RunManager, runId: string, onEvent?: (e: LoggedEvent) => void | Promise<void>) =>
    followRun(m, runId, 0, onEvent);

  it('the reader profile is not offered bash, so the call never happens', async () => {
    const m = manager();
    const { runId } = await m.start({ messages: [{ role: 'user', content: '$ echo hidden\nls' }], agent: 'reader' });
    const events = await follow(m, runId);
    expect(ofType(events, 'tool_call').map((e) => e.name)).toEqual(['list_files']);
    expect(events.some((e) => e.type === 'relay')).toBe(false);
    expect(await store().q.runs.getRun({ id: runId })).toMatchObject({ agent: 'reader', status: 'done' });
  });

  it('tools narrows the profile: only the named tools are offered', async () => {
    const m = manager();
    const { runId } = await m.start({
      messages: [{ role: 'user', content: 'ls\nread notes.md' }],
      tools: ['read_file'],
    });
    const events = await follow(m, runId);
    expect(ofType(events, 'tool_call').map((e) => e.name)).toEqual(['read_file']);
  });

  it('an unknown agent, a tool outside the profile, or a bad model is a 400 naming the field, and no run is created', async () => {
    const m = manager();
    const messages = [{ role: 'user' as const, content: 'ls' }];
    await expect(m.start({ messages, agent: 'root' })).rejects.toMatchObject({
      status: 400,
      details: { fields: [{ path: 'agent' }] },
    });
    await expect(m.start({ messages, agent: 'reader', tools: ['read_file', 'bash'] })).rejects.toMatchObject({
      status: 400,
      details: { fields: [{ path: 'tools.1' }] },
    });
    await expect(m.start({ messages, model: 'gpt-9' })).rejects.toMatchObject({
      status: 400,
      details: { fields: [{ path: 'model' }] },
    });
    await expect(m.start({ messages, model: 'openai:gpt-4o' })).rejects.toMatchObject({
      status: 400,
      details: { fields: [{ path: 'model', message: expect.stringContaining('OPENAI_API_KEY') }] },
    });
    expect((await store().q.runs.listRuns({})).items).toEqual([]);
  });

  it('setMode switches a paused run, stores and announces it, and is refused after the run ends', async () => {
    const m = manager();
    const { runId, sessionId } = await m.start({ messages: [{ role: 'user', content: '$ echo mode' }] });
    const events = await follow(m, runId, async (event) => {
      if (event.type !== 'relay') return;
      // What a resume after a restart needs: the profile's tools, stored with the run.
      expect((await store().q.runs.getRun({ id: runId }))?.state).toMatchObject({
        tools: expect.arrayContaining(['bash', 'task']),
      });
      expect(await m.setMode(runId, 'bypassPermissions')).toEqual({ runId, mode: 'bypassPermissions' });
      expect(await store().q.runs.getRun({ id: runId })).toMatchObject({
        mode: 'bypassPermissions',
        status: 'waiting',
      });
      await m.resolve(event.id, { sessionId, response: { approved: true }, decidedBy: 'alice' });
    });
    expect(ofType(events, 'mode_changed')[0]).toMatchObject({ mode: 'bypassPermissions' });
    expect(events.at(-1)).toMatchObject({ text: 'bash: mode' });
    await expect(m.setMode(runId, 'default')).rejects.toMatchObject({ status: 409, code: 'conflict:run_finished' });
    await expect(m.setMode('no-such-run', 'default')).rejects.toMatchObject({ status: 404 });
  });
});
