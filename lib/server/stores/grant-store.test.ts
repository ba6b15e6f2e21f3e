// Grants in the database: Always Allow survives a new agent (as it would a restart), global grants
// reach every session, and an allow-once grant is used once.
import { mkdtemp, rm, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeStores } from '../../db/test-support/stores';
import { createAgent, type AgentEvent, type AgentRun } from '../../agent';
import { DbGrantStore } from './grant-store';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-grants-')));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function relaysOf(run: AgentRun, answer: { approved: boolean; always?: boolean; scope?: 'session' | 'global' }) {
  const relays: Extract<AgentEvent, { type: 'relay' }>[] = [];
  for await (const event of run) {
    if (event.type !== 'relay') continue;
    relays.push(event);
    await event.respond(answer);
  }
  return relays;
}

describeStores('DbGrantStore', (store) => {
  const say = (content: string, sessionId: string) => ({ messages: [{ role: 'user' as const, content }], sessionId });

  it('an Always Allow grant is stored and applies to a fresh agent of the same session only', async () => {
    const first = createAgent({ workspace, grants: new DbGrantStore(store().q.grants) });
    expect(await relaysOf(first.invoke(say('$ echo one', 's1')), { approved: true, always: true })).toHaveLength(1);
    expect((await store().q.grants.listGrants({ sessionId: 's1' })).map((g) => g.rule.params)).toEqual([
      { command: 'echo *' },
    ]);
    const later = createAgent({ workspace, grants: new DbGrantStore(store().q.grants) });
    expect(await relaysOf(later.invoke(say('$ echo two', 's1')), { approved: false })).toHaveLength(0);
    expect(await relaysOf(later.invoke(say('$ echo three', 's2')), { approved: false })).toHaveLength(1);
  });

  it('a global grant applies to every session', async () => {
    const agent = createAgent({ workspace, grants: new DbGrantStore(store().q.grants) });
    await relaysOf(agent.invoke(say('$ echo g', 's1')), { approved: true, always: true, scope: 'global' });
    expect(await relaysOf(agent.invoke(say('$ echo h', 'another')), { approved: false })).toHaveLength(0);
  });

  it('an allow-once grant is consumed by its first use', async () => {
    await store().q.grants.createGrant({
      rule: { action: 'allow', tool: 'bash', params: { command: 'echo *' } },
      scope: 'session',
      sessionId: 's1',
      createdBy: 'admin',
      once: true,
    });
    const agent = createAgent({ workspace, grants: new DbGrantStore(store().q.grants) });
    expect(await relaysOf(agent.invoke(say('$ echo once', 's1')), { approved: false })).toHaveLength(0);
    expect(await store().q.grants.listGrants({ sessionId: 's1' })).toEqual([]);
    expect(await relaysOf(agent.invoke(say('$ echo twice', 's1')), { approved: false })).toHaveLength(1);
  });
});
