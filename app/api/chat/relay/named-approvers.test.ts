// POST /api/chat/relay/:relayId and an ask rule's `approvals`: its roles say who may
// approve, also for one person and across a command's parts (README: "asks that many distinct people, each with one of `roles`"). Relays are raised
// by the gate itself (an outside agent's call through ExternalGate), so what is checked is what the
// policy asked for, not a hand-made relay.
import { describe, expect, it } from 'vitest';
import type { RelayRequest } from '@/lib/contract';
import { apiRequest, withRouteRuntime } from '@/lib/server/test-support/route-runtime';
import { POST as decideRelay } from './[relayId]/route';

const server = withRouteRuntime('gatehouse-relay-attack-');
let n = 0;

/** Asks the gate for `command` as `owner`'s outside agent; resolves with the relay it raised. */
async function ask(owner: string, command: string) {
  const { external, q } = server.rt();
  const controller = new AbortController();
  const externalId = `review-${++n}`;
  const decided = external.decide(
    { owner, source: 'hook', agent: 'claude-code', externalId, title: '/w' },
    { tool: 'bash', params: { command }, workspace: '/w' },
    { signal: controller.signal },
  );
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = (await q.runs.listRuns({ owner, source: 'hook' })).items.find((r) => r.externalId === externalId);
    const pending = run ? await q.relays.listPendingRelays({ runId: run.id }) : [];
    if (pending[0]) return { relay: pending[0].request, decided, stop: () => controller.abort() };
    if (Date.now() > deadline) throw new Error('no relay raised');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const decide = (relay: RelayRequest, token: string, response: unknown) =>
  decideRelay(
    apiRequest('POST', `/api/chat/relay/${relay.id}`, { token, json: { sessionId: relay.sessionId, response } }),
    { params: Promise.resolve({ relayId: relay.id }) },
  );

const statusOf = async (id: string) => (await server.rt().q.relays.getRelay({ id }))?.status;

describe('POST /api/chat/relay/:id: who an ask rule lets approve', () => {
  it("an ask rule wanting one admin's approval (count 1, roles [admin]) is not approved by the run's owner", async () => {
    await server.prependRules([
      { action: 'ask', tool: 'bash', params: { command: 'echo payout*' }, approvals: { count: 1, roles: ['admin'] } },
    ]);
    const owner = await server.person('user');
    const asked = await ask(owner.user.id, 'echo payout');
    try {
      const answer = await decide(asked.relay, owner.token, { approved: true });
      expect(answer.status).toBe(403);
      expect(await statusOf(asked.relay.id)).toBe('pending');
    } finally {
      asked.stop();
      await asked.decided.catch(() => undefined);
    }
  });

  it('a command with a two-admin part and a three-approver part is not approved by three approvers alone', async () => {
    await server.prependRules([
      { action: 'ask', tool: 'bash', params: { command: 'echo wire*' }, approvals: { count: 2, roles: ['admin'] } },
      { action: 'ask', tool: 'bash', params: { command: 'echo ship*' }, approvals: { count: 3 } },
    ]);
    const owner = await server.person('user');
    const approvers = [
      await server.person('approver'),
      await server.person('approver'),
      await server.person('approver'),
    ];
    const asked = await ask(owner.user.id, 'echo wire && echo ship');
    try {
      const answers = [];
      for (const a of approvers) answers.push((await decide(asked.relay, a.token, { approved: true })).status);
      // The two-admin part is not satisfied by approvers: at least one of them is refused, and
      // the call is not approved.
      expect(await statusOf(asked.relay.id)).toBe('pending');
      expect(answers).toContain(403);
    } finally {
      asked.stop();
      await asked.decided.catch(() => undefined);
    }
  });
});
