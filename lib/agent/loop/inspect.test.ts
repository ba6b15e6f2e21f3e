// A tool's `inspect` makes a call opaque to the gate: read_file of a file with several hard links
// (it may be a file outside the workspace) asks a person whatever rules, grants and modes say,
// and a deny still denies. Real hard links in a temp workspace to a file beside it.
import { link, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAgent, MemoryGrantStore, type AgentEvent, type AgentOptions, type AgentRun } from '../index';
import { DEFAULT_POLICY } from '../../policy';

let base: string;
let workspace: string;

beforeEach(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-inspect-')));
  workspace = path.join(base, 'workspace');
  await mkdir(workspace);
  await mkdir(path.join(base, 'outside'));
  await writeFile(path.join(base, 'outside', 'secret.txt'), 'secret\n');
  await link(path.join(base, 'outside', 'secret.txt'), path.join(workspace, 'linked.txt'));
  await writeFile(path.join(workspace, 'own.txt'), 'own\n');
});
afterEach(() => rm(base, { recursive: true, force: true }));

type RelayEvent = Extract<AgentEvent, { type: 'relay' }>;

async function collect(run: AgentRun, answer?: (event: RelayEvent) => void): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === 'relay' && answer) answer(event);
  }
  return events;
}

const of = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
const say = (content: string) => ({ messages: [{ role: 'user' as const, content }] });
const agent = (options: AgentOptions = {}) => createAgent({ workspace, policy: DEFAULT_POLICY, ...options });
const noRelay = () => {
  throw new Error('no relay expected');
};

describe('inspected calls (read_file of a hard-linked file)', () => {
  it('a file with one link is read under the allow rule without asking', async () => {
    const events = await collect(agent().invoke(say('read own.txt')), noRelay);
    expect(of(events, 'tool_result')[0]).toMatchObject({ output: 'own\n', isError: false });
  });

  it('a linked file asks although an allow rule covers it; approved, it is read', async () => {
    const events = await collect(agent().invoke(say('read linked.txt')), (e) => void e.respond({ approved: true }));
    const relay = of(events, 'relay')[0]!;
    expect(relay.decision).toMatchObject({ action: 'ask', reason: 'unparseable' });
    expect(relay.decision.explanation).toBe(
      'Needs approval: linked.txt has 2 hard links, so it may be a file outside the workspace; reading it is never allowed automatically.',
    );
    expect(of(events, 'tool_result')[0]).toMatchObject({ output: 'secret\n', isError: false });
  });

  it('no mode allows it: bypassPermissions still asks, dontAsk denies', async () => {
    const bypass = await collect(
      agent({ mode: 'bypassPermissions' }).invoke(say('read linked.txt')),
      (e) => void e.respond({ approved: false }),
    );
    expect(of(bypass, 'relay')).toHaveLength(1);
    const dontAsk = await collect(agent({ mode: 'dontAsk' }).invoke(say('read linked.txt')), noRelay);
    expect(of(dontAsk, 'tool_call')[0]!.decision).toMatchObject({ action: 'deny', reason: 'mode' });
    expect(of(dontAsk, 'tool_result')[0]).toMatchObject({ denied: true });
  });

  it('no grant allows it, and Always Allow on one such call does not approve another waiting', async () => {
    const grants = new MemoryGrantStore({
      sessionId: 's',
      grants: [{ action: 'allow', tool: 'read_file', params: { path: '**' } }],
    });
    const relays: RelayEvent[] = [];
    const events: AgentEvent[] = [];
    for await (const event of agent({ grants }).invoke({
      ...say('read linked.txt\nread linked.txt'),
      sessionId: 's',
    })) {
      events.push(event);
      // Both calls ask. Once both wait, the first is approved with Always Allow (its suggested
      // rule: this path); the second must still be waiting once the first has run, and is then denied.
      if (event.type === 'relay' && relays.push(event) === 2) void relays[0]!.respond({ approved: true, always: true });
      if (event.type === 'tool_result' && event.toolCallId === relays[0]?.toolCallId)
        void relays[1]!.respond({ approved: false, reason: 'no' });
    }
    expect(relays).toHaveLength(2);
    expect(await grants.list('s')).toContainEqual(
      expect.objectContaining({ tool: 'read_file', params: { path: path.join(workspace, 'linked.txt') } }),
    );
    const resolved = of(events, 'relay_resolved');
    expect(resolved.map((r) => [r.relayId, r.status, r.decidedBy])).toEqual([
      [relays[0]!.id, 'approved', 'user'],
      [relays[1]!.id, 'denied', 'user'],
    ]);
  });

  it('a deny rule still denies it, without asking', async () => {
    const policy = {
      ...DEFAULT_POLICY,
      rules: [
        ...(DEFAULT_POLICY.rules ?? []),
        { action: 'deny' as const, tool: 'read_file', params: { path: 'linked.txt' } },
      ],
    };
    const events = await collect(agent({ policy }).invoke(say('read linked.txt')), noRelay);
    expect(of(events, 'tool_result')[0]).toMatchObject({ denied: true });
  });
});
