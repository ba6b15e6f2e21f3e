// An Always Allow's `relay_resolved` says whom the grant covers (`scope`), so a transcript can
// say "Always Allow (session)" or "(everyone)"; other answers carry no scope.
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAgent, type AgentEvent, type AgentRun } from '../index';
import type { RelayResponse } from '../../contract';

let workspace: string;
beforeEach(async () => {
  workspace = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-scope-')));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

async function resolvedAfter(response: RelayResponse) {
  const a = createAgent({ workspace, policy: { riskDefaults: { write: 'ask', read_only: 'allow' }, rules: [] } });
  const run: AgentRun = a.invoke({ messages: [{ role: 'user', content: '$ echo one' }], sessionId: 's' });
  const events: AgentEvent[] = [];
  for await (const event of run) {
    events.push(event);
    if (event.type === 'relay') void event.respond(response);
  }
  return events.find((e) => e.type === 'relay_resolved');
}

it.each<[string, RelayResponse, string | undefined]>([
  ['Always Allow for the session', { approved: true, always: true }, 'session'],
  ['Always Allow for everyone', { approved: true, always: true, scope: 'global' }, 'global'],
  ['an approval once', { approved: true }, undefined],
  ['a denial', { approved: false, reason: 'no' }, undefined],
])('relay_resolved after %s carries its scope', async (_name, response, scope) => {
  const resolved = await resolvedAfter(response);
  expect(resolved).toBeDefined();
  expect((resolved as { scope?: string }).scope).toBe(scope);
});
