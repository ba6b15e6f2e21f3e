// The outside-agent gate's lifecycle: a held request's relay never outlives the process that held
// it (cancelled at shutdown, and at the next start with one instance), and the run records why.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEditedCall } from '../runs/edit-check';
import { withRouteRuntime } from '../test-support/route-runtime';
import { sessionAllowingLs as allowingLs } from './test-support/sessions';

const server = withRouteRuntime('gatehouse-outside-');
const session = { owner: 'u-outside', source: 'hook', agent: 'claude-code', title: '/w' } as const;
// `touch` asks under the default policy (a write with no rule for it).
const asking = { tool: 'bash', params: { command: 'touch a-file' }, workspace: '/w' };

async function pendingOf(runId: string) {
  const { q } = server.rt();
  for (let i = 0; i < 400; i++) {
    const [relay] = await q.relays.listPendingRelays({ runId });
    if (relay) return relay;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('no pending relay');
}

const sessionAllowingLs = (externalId: string) => allowingLs(server.rt().q, session, externalId);

describe('outside relays never outlive their request', () => {
  it('cancels the relays held here at shutdown: the caller is answered deny, and nothing stays pending', async () => {
    const { external, q } = server.rt();
    const run = await q.runs.openExternalRun({ ...session, externalId: 'shutdown-1' });
    const answer = external.decide({ ...session, externalId: 'shutdown-1' }, asking, {
      signal: new AbortController().signal,
    });
    const relay = await pendingOf(run.id);
    await external.shutdown();
    expect(await answer).toMatchObject({ decision: 'deny', reason: 'Gatehouse shut down before a decision' });
    expect(await q.relays.getRelay({ id: relay.id })).toMatchObject({ status: 'cancelled' });
  });

  it('cancels, at the next start, a relay whose request died with the last process, and records it in the run', async () => {
    const { external, q, broker } = server.rt();
    const run = await q.runs.openExternalRun({ ...session, externalId: 'orphan-1' });
    const now = Date.now();
    await broker.register({
      id: 'orphan-relay-1',
      kind: 'permission',
      runId: run.id,
      sessionId: run.sessionId,
      agentId: 'claude-code',
      parents: [],
      toolCallId: 'toolu_orphan',
      tool: 'bash',
      params: { command: 'touch x' },
      decision: { action: 'ask', reason: 'default', explanation: 'asks' } as never,
      suggestedRules: [],
      prompt: 'x?',
      createdAt: now,
      expiresAt: now + 60_000,
    });
    expect(await external.cancelOrphans()).toBe(1);
    expect(await q.relays.getRelay({ id: 'orphan-relay-1' })).toMatchObject({
      status: 'cancelled',
      reason: 'Gatehouse restarted before a decision',
    });
    const events = await q.events.listEvents({ runId: run.id });
    expect(events.map((e) => e.type)).toEqual(['relay_resolved', 'tool_result']);
  });
});

describe('a retried call id gets its decision, and only for the very same call', () => {
  it('answers the same call id with the same tool and params by its relay; another call reusing the id is denied', async () => {
    const { external, q, runs } = server.rt();
    const ref = { ...session, externalId: 'retry-1' };
    const call = { ...asking, params: { command: 'touch retried' }, callId: 'toolu_same' };
    const first = external.decide(ref, call, { signal: new AbortController().signal });
    const run = await q.runs.openExternalRun(ref);
    const relay = await pendingOf(run.id);
    await runs.decideChecked(relay.id, { approved: true }, 'someone');
    expect(await first).toMatchObject({ decision: 'allow', relayId: relay.id });
    // The same call again (a retry, keys in another order): the same answer, no new relay.
    const again = await external.decide(
      ref,
      { ...call, params: { command: 'touch retried' } },
      {
        signal: new AbortController().signal,
      },
    );
    expect(again).toMatchObject({ decision: 'allow', relayId: relay.id });
    // The id reused for another call: never the earlier approval.
    const other = await external.decide(
      ref,
      { ...call, params: { command: 'touch another-file' } },
      {
        signal: new AbortController().signal,
      },
    );
    expect(other).toMatchObject({ decision: 'deny', reason: expect.stringContaining('already used') });
    // The same command in another folder is another call: `touch` there was never approved.
    const elsewhere = await external.decide(
      ref,
      { ...call, workspace: '/somewhere/else' },
      { signal: new AbortController().signal },
    );
    expect(elsewhere).toMatchObject({ decision: 'deny', reason: expect.stringContaining('already used') });
  });
});

describe('a call allowed at once, for a caller that runs the tool itself', () => {
  it('is claimed with its decision: once per call id, and never without `claim`', async () => {
    const { external, q } = server.rt();
    const { ref } = await sessionAllowingLs('claim-1');
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-1' };
    const options = { signal: new AbortController().signal, claim: true, waitForHuman: false };
    const first = await external.decide(ref, call, options);
    expect(first).toMatchObject({ decision: 'allow', claimed: true });
    // On PGlite the claim is won in memory and stored after the answer (with the result, or on flush).
    expect(await external.decide(ref, call, options)).toMatchObject({ decision: 'allow', claimed: false });
    await external.flushRecords();
    expect(await q.toolExecutions.getToolExecution({ runId: first.runId, toolCallId: 'mcp-1' })).toMatchObject({
      status: 'claimed',
    });
    const unclaimed = await external.decide(ref, { ...call, callId: 'hook-1' }, { signal: options.signal });
    expect(unclaimed).toMatchObject({ decision: 'allow' });
    expect(unclaimed).not.toHaveProperty('claimed');
    expect(await q.toolExecutions.getToolExecution({ runId: first.runId, toolCallId: 'hook-1' })).toBeUndefined();
  });
});

describe("the MCP express lane's decision (decideAtOnce)", () => {
  const signal = new AbortController().signal;

  it('decides, records and claims a call allowed at once as decide does with claim', async () => {
    const { external, q } = server.rt();
    const { ref: laneRef } = await sessionAllowingLs('lane-1');
    const { ref: usualRef } = await sessionAllowingLs('lane-usual-1');
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-7' };
    const lane = await external.decideAtOnce(laneRef, call, { signal });
    const usual = await external.decide(usualRef, call, { signal, claim: true });
    expect(lane).toMatchObject({ decision: 'allow', claimed: true, decidedBy: 'grant', params: call.params });
    expect(usual).toMatchObject({ decision: 'allow', claimed: true, decidedBy: 'grant' });
    expect(await external.decideAtOnce(laneRef, call, { signal })).toMatchObject({ claimed: false });
    await external.flushRecords();
    const types = async (runId: string) => (await q.events.listEvents({ runId })).map((e) => e.type);
    // One tool_call per decision (the second lost the claim), as the usual path records its one.
    expect(await types(usual.runId)).toEqual(['tool_call']);
    expect(await types(lane!.runId)).toEqual(['tool_call', 'tool_call']);
    expect(await q.toolExecutions.getToolExecution({ runId: lane!.runId, toolCallId: 'mcp-7' })).toMatchObject({
      status: 'claimed',
    });
  });

  it('decides from memory without a promise once all it reads is in memory, records and claims alike', async () => {
    const { external, q } = server.rt();
    const { ref, run } = await sessionAllowingLs('lane-now');
    const call = (callId: string) => ({ tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId });
    // The first reads the run, the policy, the grants and the run's claims: a promise.
    const first = external.decideAtOnce(ref, call('mcp-n1'), { signal });
    expect(first).toBeInstanceOf(Promise);
    expect(await first).toMatchObject({ decision: 'allow', claimed: true, decidedBy: 'grant' });
    // Then from memory: the answer itself, the same decision and claim.
    const second = external.decideAtOnce(ref, call('mcp-n2'), { signal });
    expect(second).not.toBeInstanceOf(Promise);
    expect(second).toMatchObject({ runId: run.id, decision: 'allow', claimed: true, decidedBy: 'grant' });
    expect(external.decideAtOnce(ref, call('mcp-n2'), { signal })).toMatchObject({ claimed: false });
    // An ask from memory: undefined, nothing observed or recorded.
    expect(external.decideAtOnce(ref, { ...asking, callId: 'mcp-n3' }, { signal })).toBeUndefined();
    await external.flushRecords();
    // Claims are held until their results (here: the flush), so the losing call's record comes first.
    const events = await q.events.listEvents({ runId: run.id });
    expect(events.map((e) => `${e.type} ${String(e.data.toolCallId)}`).sort()).toEqual([
      'tool_call mcp-n1',
      'tool_call mcp-n2',
      'tool_call mcp-n2',
    ]);
    const audit = (await q.audit.listAudit({ runId: run.id })).items;
    expect(audit.map((row) => [row.kind, row.action])).toEqual([
      ['decision', 'allow'],
      ['decision', 'allow'],
      ['decision', 'allow'],
    ]);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-n2' })).toMatchObject({
      status: 'claimed',
    });
    // A revoked grant reaches the very next call: read again (a promise), and no longer allowed.
    const [grant] = await q.grants.listGrants({ sessionId: run.sessionId });
    await q.grants.revokeGrant({ id: grant!.id, revokedBy: 'admin' });
    const revoked = external.decideAtOnce(ref, call('mcp-n4'), { signal });
    expect(revoked).toBeInstanceOf(Promise);
    expect(await revoked).toBeUndefined();
  });

  it('returns undefined for an ask or an allow-once grant, with nothing recorded, relayed or consumed', async () => {
    const { external, q } = server.rt();
    const ref = { ...session, externalId: 'lane-2' };
    const run = await q.runs.openExternalRun(ref);
    expect(await external.decideAtOnce(ref, { ...asking, callId: 'mcp-1' }, { signal })).toBeUndefined();
    const rule = { action: 'allow' as const, tool: 'bash', params: { command: 'pwd' } };
    await q.grants.createGrant({ rule, scope: 'session', sessionId: run.sessionId, createdBy: 'u', once: true });
    const once = { tool: 'bash', params: { command: 'pwd' }, workspace: '/w', callId: 'mcp-2' };
    expect(await external.decideAtOnce(ref, once, { signal })).toBeUndefined();
    await external.flushRecords();
    expect(await q.events.listEvents({ runId: run.id })).toEqual([]);
    expect(await q.relays.listPendingRelays({ runId: run.id })).toEqual([]);
    // The grant is still there for the usual path, which uses it up.
    expect(await external.decide(ref, once, { signal, claim: true })).toMatchObject({ decision: 'allow' });
    expect(await external.decide(ref, { ...once, callId: 'mcp-3' }, { signal, waitForHuman: false })).toMatchObject({
      decision: 'ask',
    });
  });
});

describe('Always Allow settles only the waiting calls its grant covers, each judged as it was asked', () => {
  const signal = new AbortController().signal;
  // The agent user's home: `~/` in rules means it for their calls (not the server's home).
  const home = '/home/dev';
  const read = (path: string, extra: Record<string, unknown> = {}) => ({
    tool: 'read_file',
    params: { path },
    workspace: `${home}/project`,
    homeDir: home,
    ...extra,
  });
  const grantOfHome = { action: 'allow' as const, tool: 'read_file', params: { path: `${home}/**` } };

  /** Asks `asked` (held by an ask rule), then approves another call of the session with a grant covering both. */
  async function grantWhileWaiting(externalId: string, asked: ReturnType<typeof read>) {
    const { external, q, runs } = server.rt();
    const ref = { ...session, externalId };
    const held = external.decide(ref, asked, { signal });
    const run = await q.runs.openExternalRun(ref);
    const first = await pendingOf(run.id);
    // Asked by the default action: outside the project, and no rule for it.
    const other = external.decide(ref, read(`${home}/notes/todo.md`), { signal });
    let second: Awaited<ReturnType<typeof pendingOf>> | undefined;
    for (let i = 0; i < 400 && !second; i++) {
      second = (await q.relays.listPendingRelays({ runId: run.id })).find((r) => r.id !== first.id);
      if (!second) await new Promise((r) => setTimeout(r, 25));
    }
    // An admin's grant for all of the home folder (admins may edit the rule).
    await runs.decideChecked(second!.id, { approved: true, always: true, rule: grantOfHome }, 'admin', {
      mayManageGrants: true,
    });
    expect(await other).toMatchObject({ decision: 'allow' });
    await new Promise((r) => setTimeout(r, 100));
    return { held, first, run };
  }

  it('a waiting call no rule holds is settled by the grant that covers it', async () => {
    const { held } = await grantWhileWaiting('always-covered-1', read(`${home}/other/plan.md`));
    expect(await held).toMatchObject({ decision: 'allow', decidedBy: 'grant' });
  });

  it('a call an ask rule holds through `~/` (the agent user’s home) stays waiting', async () => {
    await server.prependRules([{ action: 'ask', tool: 'read_file', params: { path: '~/.aws/**' } }]);
    const { held, first } = await grantWhileWaiting('always-home-1', read(`${home}/.aws/credentials`));
    const { q, runs } = server.rt();
    expect(await q.relays.getRelay({ id: first.id })).toMatchObject({ status: 'pending' });
    await runs.decideChecked(first.id, { approved: false }, 'someone');
    expect(await held).toMatchObject({ decision: 'deny' });
  });

  it('a search whose folder holds what an ask rule names stays waiting', async () => {
    await server.prependRules([{ action: 'ask', tool: 'read_file', params: { path: `${home}/secrets/**` } }]);
    const { held, first } = await grantWhileWaiting('always-search-1', read(home, { searchRoot: 'path' }));
    const { q, runs } = server.rt();
    expect(await q.relays.getRelay({ id: first.id })).toMatchObject({ status: 'pending' });
    await runs.decideChecked(first.id, { approved: false }, 'someone');
    expect(await held).toMatchObject({ decision: 'deny' });
  });
});

describe("an outside call's preview is made from the call alone, never from the server's files", () => {
  /** The relay an outside write or edit raises (a write asks under the default policy), then `also` while it waits. */
  async function relayOf(
    externalId: string,
    call: { tool: string; params: Record<string, unknown> },
    also: (relayId: string) => Promise<void> = async () => {},
  ) {
    const { external, q } = server.rt();
    const ref = { ...session, externalId };
    const controller = new AbortController();
    const held = external.decide(ref, { ...call, workspace: '/' }, { signal: controller.signal });
    const run = await q.runs.openExternalRun(ref);
    const relay = await pendingOf(run.id);
    await also(relay.id);
    controller.abort();
    await held;
    return relay.request;
  }

  it("a Write of a file the server holds shows no diff of the server's copy", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-server-file-'));
    const file = path.join(dir, 'secret.txt');
    writeFileSync(file, 'ONLY-ON-THE-SERVER\n');
    const request = await relayOf('preview-write-1', { tool: 'write_file', params: { path: file, content: 'x' } });
    expect(JSON.stringify(request)).not.toContain('ONLY-ON-THE-SERVER');
    expect(request.preview).toBeUndefined();
  });

  it('an Edit shows its own old and new text, and nothing else of the file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-server-file-'));
    const file = path.join(dir, 'config.txt');
    writeFileSync(file, 'ONLY-ON-THE-SERVER\nmode = a\nANOTHER-SECRET\n');
    const request = await relayOf('preview-edit-1', {
      tool: 'edit_file',
      params: { path: file, old: 'mode = a\n', new: 'mode = b\n' },
    });
    expect(JSON.stringify(request)).not.toMatch(/ONLY-ON-THE-SERVER|ANOTHER-SECRET/);
    expect(request.preview).toMatchObject({ kind: 'diff', created: false });
    const { diff } = request.preview as { diff: string };
    expect(diff).toContain('-mode = a');
    expect(diff).toContain('+mode = b');
    // Where in the file is not known without the file: no line numbers that would mislead.
    expect(diff).toContain('@@ its one place in the file @@');
    expect(diff).not.toMatch(/@@ -\d/);
  });

  it('an Edit of every occurrence says so', async () => {
    const request = await relayOf('preview-edit-all-1', {
      tool: 'edit_file',
      params: { path: '/elsewhere/a.txt', old: 'a', new: 'b', replace_all: true },
    });
    expect((request.preview as { diff: string }).diff).toContain('@@ every occurrence in the file @@');
  });

  it("the live check of an approver's edit previews the edited call alone too", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-server-file-'));
    const file = path.join(dir, 'config.txt');
    writeFileSync(file, 'ONLY-ON-THE-SERVER\nmode = a\n');
    await relayOf(
      'preview-edit-check-1',
      { tool: 'edit_file', params: { path: '/elsewhere/notes.txt', old: 'x', new: 'y' } },
      async (relayId) => {
        const checked = await checkEditedCall(
          server.rt().q,
          relayId,
          { path: file, old: 'mode = a\n', new: 'mode = b\n' },
          server.rt().config.workspace,
        );
        expect(JSON.stringify(checked)).not.toContain('ONLY-ON-THE-SERVER');
        expect(checked).toMatchObject({ ok: true, preview: { kind: 'diff' } });
      },
    );
  });
});

describe('Always Allow with an edit grants the call that runs, not the one the agent sent', () => {
  it("stores the edited call's rule: the original call asks again, the edited one is allowed", async () => {
    const { external, q, runs } = server.rt();
    const ref = { ...session, externalId: 'edit-always-1' };
    const signal = new AbortController().signal;
    const call = (command: string, callId: string) => ({ tool: 'bash', params: { command }, workspace: '/w', callId });
    const held = external.decide(ref, call('touch original-file', 'toolu_e1'), { signal });
    const run = await q.runs.openExternalRun(ref);
    const relay = await pendingOf(run.id);
    await runs.decideChecked(
      relay.id,
      { approved: true, always: true, params: { command: 'mkdir edited-dir' } },
      'someone',
    );
    expect(await held).toMatchObject({ decision: 'allow', params: { command: 'mkdir edited-dir' } });
    const handBack = { signal, waitForHuman: false };
    expect(await external.decide(ref, call('touch /w/anything-else', 'toolu_e2'), handBack)).toMatchObject({
      decision: 'ask',
    });
    expect(await external.decide(ref, call('mkdir edited-dir', 'toolu_e3'), handBack)).toMatchObject({
      decision: 'allow',
      decidedBy: 'grant',
    });
  });
});
