// Always Allow in the library, which knows no roles (whoever calls `respond` is treated as the
// relay's owner): whatever the answer says, only allow rules for the relay's own tool that cover
// the call are stored, and a relay offers only suggestions that would allow its call again.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, type AgentEvent, type AgentRun } from '../index';
import type { PolicyInput, Rule } from '../../policy';

let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-always-')));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

const askBash: PolicyInput = { riskDefaults: { write: 'ask', read_only: 'allow' }, rules: [] };
const say = (content: string, sessionId = 's') => ({ messages: [{ role: 'user' as const, content }], sessionId });
const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);

async function collect(
  run: AgentRun,
  answer?: (event: Extract<AgentEvent, { type: 'relay' }>) => void,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === 'relay' && answer) answer(event);
  }
  return events;
}

describe('Always Allow in the library', () => {
  it.each<[string, Rule | Rule[]]>([
    ['a tool glob', { action: 'allow', tool: '*' }],
    ['another tool', { action: 'allow', tool: 'read_file' }],
    ['a rule that does not cover the call', { action: 'allow', tool: 'bash', params: { command: 'ls *' } }],
    ['a deny rule (never turned into an allow)', { action: 'deny', tool: 'bash', params: { command: 'echo *' } }],
  ])('never stores %s; the approved call still runs once', async (_name, rule) => {
    const a = createAgent({ workspace, policy: askBash });
    const events = await collect(
      a.invoke(say('$ echo one')),
      (e) => void e.respond({ approved: true, always: true, rule }),
    );
    expect(of(events, 'tool_result')[0]).toMatchObject({ output: 'one\n', denied: false });
    expect(await a.grants.list('s')).toEqual([]);
  });

  it('of several rules, stores only those that fit the call', async () => {
    const a = createAgent({ workspace, policy: askBash });
    const rule: Rule[] = [
      { action: 'allow', tool: '*' },
      { action: 'allow', tool: 'bash', params: { command: 'echo one' } },
    ];
    await collect(a.invoke(say('$ echo one')), (e) => void e.respond({ approved: true, always: true, rule }));
    expect(await a.grants.list('s')).toEqual([{ action: 'allow', tool: 'bash', params: { command: 'echo one' } }]);
  });

  it('a tool-glob grant for everyone does not approve another session’s pending call', async () => {
    const a = createAgent({ workspace, policy: askBash });
    const stranger = a.invoke(say('$ echo theirs', 't'));
    const strangerEvents: AgentEvent[] = [];
    const watching = (async () => {
      for await (const e of stranger) strangerEvents.push(e);
    })();
    await expect.poll(async () => (await a.broker.listPending({ sessionId: 't' })).length).toBe(1);
    await collect(
      a.invoke(say('$ echo mine')),
      (e) => void e.respond({ approved: true, always: true, scope: 'global', rule: { action: 'allow', tool: '*' } }),
    );
    expect(await a.broker.listPending({ sessionId: 't' })).toHaveLength(1);
    const [pending] = await a.broker.listPending({ sessionId: 't' });
    await a.broker.resolve(pending!.id, { approved: false, reason: 'not covered' });
    await watching;
    expect(of(strangerEvents, 'relay_resolved')[0]).toMatchObject({ status: 'denied', reason: 'not covered' });
  });

  it('a relay suggests only rules that would allow its call again', async () => {
    const a = createAgent({ workspace, policy: askBash });
    const events = await collect(a.invoke(say('$ echo a > out.txt && ls')), (e) => void e.respond({ approved: false }));
    // `echo *` would not allow a part that writes a file: only `ls *` is offered.
    expect(of(events, 'relay')[0]!.suggestedRules).toEqual([expect.objectContaining({ params: { command: 'ls *' } })]);
  });
});
