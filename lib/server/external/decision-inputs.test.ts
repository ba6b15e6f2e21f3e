// The outside gate serves the session's run, the policy and the grants from memory on PGlite: each
// write to them made through the queries reaches the very next decision, in or out of a transaction.
import { describe, expect, it, vi } from 'vitest';
import type { Policy, Rule } from '../../policy';
import { DbGrantStore } from '../stores/grant-store';
import { withRouteRuntime } from '../test-support/route-runtime';
import { DecisionInputs } from './decision-inputs';

const server = withRouteRuntime('gatehouse-inputs-');
const session = { owner: 'u-inputs', source: 'hook', agent: 'claude-code', title: '/w' } as const;
// `touch` asks under the default policy (a write with no rule for it).
const touch = { tool: 'bash', params: { command: 'touch a-file' }, workspace: '/w' };
const allowTouch: Rule = { action: 'allow', tool: 'bash', params: { command: 'touch *' } };
const answer = (externalId: string, call = touch) =>
  server.rt().external.decide({ ...session, externalId }, call, {
    signal: new AbortController().signal,
    waitForHuman: false,
  });

describe('decision inputs served from memory', () => {
  it('a grant created, then revoked, applies to the very next call', async () => {
    const { q } = server.rt();
    expect((await answer('grant-1')).decision).toBe('ask');
    const run = await q.runs.openExternalRun({ ...session, externalId: 'grant-1' });
    const grant = await q.grants.createGrant({
      rule: allowTouch,
      scope: 'session',
      sessionId: run.sessionId,
      createdBy: 'u',
    });
    expect((await answer('grant-1')).decision).toBe('allow');
    await q.grants.revokeGrant({ id: grant.id, revokedBy: 'admin' });
    expect((await answer('grant-1')).decision).toBe('ask');
  });

  it('a grant revoked inside a transaction is counted after its commit', async () => {
    const { q } = server.rt();
    const run = await q.runs.openExternalRun({ ...session, externalId: 'grant-tx' });
    const grant = await q.grants.createGrant({ rule: allowTouch, scope: 'global', createdBy: 'u' });
    expect((await answer('grant-tx')).decision).toBe('allow');
    await q.transaction(async (tx) => {
      await tx.grants.revokeGrant({ id: grant.id, revokedBy: 'admin' });
      // Read inside the transaction's lifetime by another caller: may see the old state...
      expect(run.id).toBeTruthy();
    });
    // ...but never after the commit.
    expect((await answer('grant-tx')).decision).toBe('ask');
  });

  it('an allow-once grant is used by one call only', async () => {
    const { q } = server.rt();
    const run = await q.runs.openExternalRun({ ...session, externalId: 'once-1' });
    await q.grants.createGrant({
      rule: allowTouch,
      scope: 'session',
      sessionId: run.sessionId,
      createdBy: 'u',
      once: true,
    });
    expect((await answer('once-1')).decision).toBe('allow');
    expect((await answer('once-1')).decision).toBe('ask');
  });

  it('a saved policy and a run switched to another mode apply to the very next call', async () => {
    const { q } = server.rt();
    const run = await q.runs.openExternalRun({ ...session, externalId: 'mode-1' });
    expect((await answer('mode-1')).decision).toBe('ask');
    await q.runs.updateRun({ id: run.id, mode: 'bypassPermissions' });
    expect((await answer('mode-1')).decision).toBe('allow');
    await q.runs.updateRun({ id: run.id, mode: 'default' });
    expect((await answer('mode-1')).decision).toBe('ask');

    const latest = (await q.policies.getLatestPolicy())!;
    const policy = latest.policy as Policy;
    await q.policies.savePolicy({
      policy: { ...policy, rules: [{ ...allowTouch, agent: 'claude-code' }, ...policy.rules] },
      expectedVersion: latest.version,
      createdBy: 'admin',
    });
    expect((await answer('mode-1')).decision).toBe('allow');
  });

  it('reads nothing again while nothing changed, and everything once something did', async () => {
    const { q } = server.rt();
    const inputs = new DecisionInputs(q, new DbGrantStore(q.grants), q.decisions);
    const list = vi.spyOn(q.grants, 'listGrants');
    const open = vi.spyOn(q.runs, 'openExternalRun');
    const version = vi.spyOn(q.policies, 'getLatestVersion');
    const ref = { ...session, externalId: 'reads-1' };
    for (let i = 0; i < 3; i++) {
      const run = await inputs.run(ref);
      await inputs.policy();
      await inputs.grants(run.sessionId);
    }
    expect([open.mock.calls.length, version.mock.calls.length, list.mock.calls.length]).toEqual([1, 1, 1]);
    const unrelated: Rule = { action: 'allow', tool: 'bash', params: { command: 'unrelated *' } };
    await q.grants.createGrant({ rule: unrelated, scope: 'global', createdBy: 'u' });
    const run = await inputs.run(ref);
    await inputs.policy();
    await inputs.grants(run.sessionId);
    expect([open.mock.calls.length, version.mock.calls.length, list.mock.calls.length]).toEqual([2, 2, 2]);
    vi.restoreAllMocks();
  });

  it('gives all three without waiting only while each is read and nothing changed since', async () => {
    const { q } = server.rt();
    const inputs = new DecisionInputs(q, new DbGrantStore(q.grants), q.decisions);
    const ref = { ...session, externalId: 'now-1' };
    expect(inputs.now(ref)).toBeUndefined();
    const run = await inputs.run(ref);
    await inputs.policy();
    expect(inputs.now(ref)).toBeUndefined(); // the grants not read yet
    const grants = await inputs.grants(run.sessionId);
    const compiled = await inputs.policy();
    expect(inputs.now(ref)).toEqual({ run, compiled, grants });
    expect(inputs.now({ ...ref, externalId: 'now-2' })).toBeUndefined(); // another session's run
    const unrelated: Rule = { action: 'allow', tool: 'bash', params: { command: 'unrelated-now *' } };
    await q.grants.createGrant({ rule: unrelated, scope: 'global', createdBy: 'u' });
    expect(inputs.now(ref)).toBeUndefined(); // a change: everything is read again first
    await inputs.run(ref);
    await inputs.policy();
    expect(inputs.now(ref)).toBeUndefined();
    const again = await inputs.grants(run.sessionId);
    expect(again).toContainEqual(expect.objectContaining(unrelated));
    expect(inputs.now(ref)?.grants).toBe(again);
    expect(new DecisionInputs(q, new DbGrantStore(q.grants), undefined).now(ref)).toBeUndefined();
  });

  it('without a trusted count (PostgreSQL: other instances write) every call reads them', async () => {
    const { q } = server.rt();
    const inputs = new DecisionInputs(q, new DbGrantStore(q.grants), undefined);
    const list = vi.spyOn(q.grants, 'listGrants');
    for (let i = 0; i < 3; i++) await inputs.grants('s-pg');
    expect(list.mock.calls.length).toBe(3);
    vi.restoreAllMocks();
  });
});

describe('allow-once grants under concurrency', () => {
  it('two calls at once, one allow-once grant: exactly one is allowed by it', async () => {
    const { q } = server.rt();
    const mkdir = { tool: 'bash', params: { command: 'mkdir race-dir' }, workspace: '/w' };
    const run = await q.runs.openExternalRun({ ...session, externalId: 'once-race' });
    expect((await answer('once-race', mkdir)).decision).toBe('ask'); // and the inputs are cached
    const once: Rule = { action: 'allow', tool: 'bash', params: { command: 'mkdir *' } };
    await q.grants.createGrant({ rule: once, scope: 'session', sessionId: run.sessionId, createdBy: 'u', once: true });
    const answers = await Promise.all([1, 2, 3].map(() => answer('once-race', mkdir)));
    expect(answers.map((a) => a.decision).sort()).toEqual(['allow', 'ask', 'ask']);
  });
});
