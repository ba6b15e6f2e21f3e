// The library's events are the contract's, in the seed design's names: a consumer written against
// the seed reads `content`, `name`, `output`, and a relay's own fields on the event, with `respond`.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { AgentEventSchema } from '../contract';
import { createAgent, type AgentEvent } from './index';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-wire-')));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

it('every event of a run with a relay parses as the contract has it, with the seed fields on the event', async () => {
  const agent = createAgent({ workspace, policy: { riskDefaults: { write: 'ask', read_only: 'allow' }, rules: [] } });
  const events: AgentEvent[] = [];
  const printed: string[] = [];
  for await (const event of agent.invoke({ messages: [{ role: 'user', content: '$ echo seeds' }] })) {
    events.push(event);
    // The seed's CLI consumer, as written.
    if (event.type === 'relay') {
      printed.push(
        `relay ${event.kind} ${event.tool} ${JSON.stringify(event.params)} ${event.id} ${event.runId} ${event.toolCallId}`,
      );
      void event.respond({ approved: true });
    }
    if (event.type === 'text') printed.push(`text ${event.content}`);
    if (event.type === 'tool_call') printed.push(`call ${event.name}`);
    if (event.type === 'tool_result') printed.push(`result ${event.output}`);
  }
  for (const event of events) {
    const { respond: _respond, ...stored } = event as AgentEvent & { respond?: unknown };
    expect(AgentEventSchema.safeParse(stored).error, JSON.stringify(stored)).toBeUndefined();
    expect(event).toMatchObject({ runId: events[0]!.runId, agentId: 'main', parents: [] });
  }
  const relay = events.find((e) => e.type === 'relay')!;
  expect(relay).not.toHaveProperty('relay');
  expect(printed.slice(0, 3)).toEqual([
    'call bash',
    `relay permission bash {"command":"echo seeds"} ${relay.type === 'relay' && relay.id} ${relay.runId} ${relay.type === 'relay' && relay.toolCallId}`,
    'result seeds\n',
  ]);
  expect(printed.slice(3).join('')).toBe('text bash:text  seeds');
});
