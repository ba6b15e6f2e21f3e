// The server's rules of Always Allow (always-allow.ts through RunManager.decideChecked): every
// refusal is a 403 or 422 naming the field and leaves the relay pending; what is accepted is
// stored as the engine's copy, for the session unless an admin grants for everyone.
import { expect, it } from 'vitest';
import type { Rule } from '../../policy';
import type { RelayResponse } from '../../relay';
import { describeStores } from '../../db/test-support/stores';
import type { RunManager } from './run-manager';
import { followRun, testRunManager, useTempWorkspace } from '../test-support/run-manager';
import { loadPolicy, savePolicyVersion } from '../stores/policy-store';

const workspace = useTempWorkspace('gatehouse-always-');
const user = { mayManageGrants: false };
const admin = { mayManageGrants: true };
const bash = (command: string): Rule => ({ action: 'allow', tool: 'bash', params: { command } });

describeStores('Always Allow on the server', (store) => {
  const manager = () => testRunManager(store().q, workspace());

  /** Starts `$ <command>` and calls `decide` with its relay once it waits; resolves when the run is done. */
  async function withRelay(
    m: RunManager,
    command: string,
    decide: (relayId: string, sessionId: string) => Promise<void>,
    sessionId?: string,
  ) {
    const started = await m.start({ messages: [{ role: 'user', content: `$ ${command}` }], owner: 'u1', sessionId });
    return followRun(m, started.runId, 0, async (event) => {
      if (event.type === 'relay') await decide(event.id, started.sessionId);
    });
  }

  const pending = async (relayId: string) => (await store().q.relays.getRelay({ id: relayId }))?.status;

  it.each<[string, RelayResponse, number, string]>([
    ['a tool glob', { approved: true, always: true, rule: { action: 'allow', tool: '*' } }, 422, 'response.rule.tool'],
    [
      'another tool',
      { approved: true, always: true, rule: [{ action: 'allow', tool: 'read_file' }] },
      422,
      'response.rule.0.tool',
    ],
    ['a rule that does not cover the call', { approved: true, always: true, rule: bash('ls *') }, 422, 'response.rule'],
    ['an edited suggested rule', { approved: true, always: true, rule: bash('echo h*') }, 422, 'response.rule'],
    ['a grant for everyone', { approved: true, always: true, scope: 'global' }, 403, 'response.scope'],
    [
      'the attack: a tool glob for everyone',
      { approved: true, always: true, scope: 'global', rule: { action: 'allow', tool: '*' } },
      403,
      'response.scope',
    ],
  ])('a user is refused %s, and the relay stays pending', async (_name, response, status, field) => {
    const m = manager();
    await withRelay(m, 'echo hello', async (relayId) => {
      const refused = await m.decideChecked(relayId, response, 'u1', user).catch((error: unknown) => error);
      expect(refused).toMatchObject({
        status,
        details: {
          fields: [
            expect.objectContaining({ path: expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')}`)) }),
          ],
        },
      });
      expect(await pending(relayId)).toBe('pending');
      await m.decideChecked(relayId, { approved: true }, 'u1', user);
    });
    expect(await store().q.grants.listGrants()).toEqual([]);
  });

  it('the attack does not touch another user’s pending call: it stays pending', async () => {
    const m = manager();
    const theirs = await m.start({ messages: [{ role: 'user', content: '$ echo theirs' }], owner: 'u2' });
    let theirRelay = '';
    const following = followRun(m, theirs.runId, 0, async (event) => {
      if (event.type === 'relay') theirRelay = event.id;
    });
    await expect.poll(() => theirRelay).not.toBe('');
    await withRelay(m, 'echo mine', async (relayId) => {
      await expect(
        m.decideChecked(
          relayId,
          { approved: true, always: true, scope: 'global', rule: { action: 'allow', tool: '*' } },
          'u1',
          user,
        ),
      ).rejects.toMatchObject({ status: 403 });
      // Even as a session grant, the tool glob is refused.
      await expect(
        m.decideChecked(relayId, { approved: true, always: true, rule: { action: 'allow', tool: '*' } }, 'u1', user),
      ).rejects.toMatchObject({ status: 422 });
      await m.decideChecked(relayId, { approved: true }, 'u1', user);
    });
    expect(await pending(theirRelay)).toBe('pending');
    await m.decideChecked(theirRelay, { approved: false }, 'u2', user);
    await following;
    expect(await store().q.grants.listGrants()).toEqual([]);
  });

  it('a user may add the suggested rule or the exact call, for their session; the engine’s copy is stored', async () => {
    const m = manager();
    const sessions: string[] = [];
    await withRelay(m, 'echo hello', async (relayId, sessionId) => {
      sessions.push(sessionId);
      await m.decideChecked(
        relayId,
        { approved: true, always: true, rule: { ...bash('echo *'), description: 'anything', id: 'mine' } },
        'u1',
        user,
      );
    });
    await withRelay(m, 'ls -la', async (relayId, sessionId) => {
      sessions.push(sessionId);
      await m.decideChecked(relayId, { approved: true, always: true, rule: bash('ls -la') }, 'u1', user);
    });
    const grants = await store().q.grants.listGrants();
    expect(grants.map((g) => [g.rule.params?.command, g.rule.id ?? null, g.scope, g.sessionId, g.createdBy])).toEqual([
      ['echo *', null, 'session', sessions[0], 'u1'],
      ['ls -la', null, 'session', sessions[1], 'u1'],
    ]);
  });

  it('an admin may edit the rule freely and grant for everyone, but not with a tool glob', async () => {
    const m = manager();
    await withRelay(m, 'echo hello', async (relayId) => {
      await expect(
        m.decideChecked(
          relayId,
          { approved: true, always: true, scope: 'global', rule: { action: 'allow', tool: '*' } },
          'admin',
          admin,
        ),
      ).rejects.toMatchObject({ status: 422 });
      expect(await pending(relayId)).toBe('pending');
      await m.decideChecked(
        relayId,
        { approved: true, always: true, scope: 'global', rule: bash('echo h*') },
        'admin',
        admin,
      );
    });
    expect((await store().q.grants.listGrants()).map((g) => [g.rule.params?.command, g.scope, g.createdBy])).toEqual([
      ['echo h*', 'global', 'admin'],
    ]);
  });

  it('resolve() (no route in front) judges Always Allow as a decider without grants:manage', async () => {
    const m = manager();
    await withRelay(m, 'echo hello', async (relayId, sessionId) => {
      await expect(
        m.resolve(relayId, { sessionId, response: { approved: true, always: true, scope: 'global' }, decidedBy: 'u1' }),
      ).rejects.toMatchObject({ status: 403 });
      await expect(
        m.resolve(relayId, {
          sessionId,
          response: { approved: true, always: true, rule: { action: 'allow', tool: '*' } },
          decidedBy: 'u1',
        }),
      ).rejects.toMatchObject({ status: 422 });
      expect(await pending(relayId)).toBe('pending');
      await m.resolve(relayId, { sessionId, response: { approved: true }, decidedBy: 'u1' });
    });
  });

  it('a relay waiting in another process is judged from the database the same way (refused: still pending)', async () => {
    const m = manager();
    await withRelay(m, 'echo hello', async (relayId) => {
      const elsewhere = manager();
      await expect(
        elsewhere.decideChecked(relayId, { approved: true, always: true, rule: bash('echo h*') }, 'u1', user),
      ).rejects.toMatchObject({ status: 422 });
      expect(await pending(relayId)).toBe('pending');
      await expect(
        elsewhere.decideChecked(relayId, { approved: true, always: true, scope: 'global' }, 'u1', user),
      ).rejects.toMatchObject({ status: 403 });
      expect(await pending(relayId)).toBe('pending');
      await elsewhere.close();
      await m.decideChecked(relayId, { approved: true, always: true, rule: bash('echo *') }, 'u1', user);
    });
    expect((await store().q.grants.listGrants()).map((g) => g.rule.params?.command)).toEqual(['echo *']);
  });

  it('a grant that could never apply to the call is never stored: an edited rule is refused (422, still pending), a plain Always Allow approves once', async () => {
    const m = manager();
    // A redirection: no command rule covers it, so Always Allow would store nothing useful.
    await withRelay(m, 'echo hi > r.txt', async (relayId) => {
      await expect(
        m.decideChecked(relayId, { approved: true, always: true, rule: bash('echo *') }, 'admin', admin),
      ).rejects.toMatchObject({
        status: 422,
        details: { fields: [expect.objectContaining({ path: expect.stringMatching(/^response\.rule/) })] },
      });
      expect(await pending(relayId)).toBe('pending');
      await m.decideChecked(relayId, { approved: true, always: true }, 'u1', user);
      const row = await store().q.relays.getRelay({ id: relayId });
      expect(row?.status).toBe('approved');
      expect(row?.response).toMatchObject({
        approved: true,
        reason: expect.stringMatching(/^Approved once: Always Allow would never apply/),
      });
      expect(row?.response).not.toHaveProperty('always');
    });
    // An ask rule asks whatever is granted: the suggestion, or an admin's edit, would never apply.
    const { version, policy } = await loadPolicy(store().q);
    await savePolicyVersion(store().q, {
      policy: {
        ...policy,
        rules: [...(policy.rules ?? []), { action: 'ask', tool: 'bash', params: { command: 'echo gated *' } }],
      },
      expectedVersion: version,
      createdBy: 'admin',
    });
    await withRelay(m, 'echo gated one', async (relayId) => {
      const refused = await m
        .decideChecked(relayId, { approved: true, always: true, rule: bash('echo gated *') }, 'admin', admin)
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({
        status: 422,
        details: {
          fields: [
            expect.objectContaining({
              path: expect.stringMatching(/^response\.rule/),
              message: expect.stringMatching(/ask/),
            }),
          ],
        },
      });
      expect(await pending(relayId)).toBe('pending');
      await m.decideChecked(relayId, { approved: true, always: true }, 'u1', user);
    });
    expect(await store().q.grants.listGrants()).toEqual([]);
  });
});
