// A call decided at once is answered before its record is stored (embedded PGlite): the record is
// journaled before the answer, stored right after it, and a process that stops in between leaves
// it for the next start, which stores it once. Against the server's own runtime (its database,
// its run log) and a second gate standing for the process that stopped.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunEvent } from '../../contract';
import type { RunLog } from '../runs/run-log';
import { DbGrantStore } from '../stores/grant-store';
import { withRouteRuntime } from '../test-support/route-runtime';
import type { OutsideRecord } from './deferred-records';
import { ExternalGate } from './external-gate';
import { OUTSIDE_RECORDS_JOURNAL, RecordJournal } from './record-journal';
import { sessionAllowingLs } from './test-support/sessions';

const server = withRouteRuntime('gatehouse-deferred-');
const session = { owner: 'u-deferred', source: 'hook', agent: 'claude-code', title: '/w' } as const;
const signal = new AbortController().signal;
const scratch = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-deferred-journal-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const allowLs = (externalId: string) => sessionAllowingLs(server.rt().q, session, externalId);

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('never happened');
}

/** A gate over the runtime's database whose run log cannot store (the process stopped first). */
function stoppedGate(file: string, reports: Error[]): ExternalGate {
  const { q, broker, config } = server.rt();
  const stopped = {
    append: () => Promise.reject(new Error('the process stopped')),
    appendClaiming: () => Promise.reject(new Error('the process stopped')),
  } as unknown as RunLog;
  return new ExternalGate({
    q,
    broker,
    grants: new DbGrantStore(q.grants),
    log: stopped,
    approvalTimeoutS: config.approvalTimeoutS,
    workspace: '/w',
    deferRecords: { journal: new RecordJournal<OutsideRecord>(file), report: (error) => reports.push(error) },
  });
}

/** A session allowed `ls`, and a gate for it whose process stops before storing (journal `<name>.journal`). */
async function allowedWhileStopped(externalId: string, name: string) {
  const { ref, run } = await allowLs(externalId);
  const file = path.join(scratch, `${name}.journal`);
  const reports: Error[] = [];
  return { ref, run, file, reports, stopped: stoppedGate(file, reports) };
}

function restartedGate(file: string, reports: Error[] = [], log?: RunLog): ExternalGate {
  const { q, broker, config, runs } = server.rt();
  return new ExternalGate({
    q,
    broker,
    grants: new DbGrantStore(q.grants),
    log: log ?? runs.log,
    approvalTimeoutS: config.approvalTimeoutS,
    workspace: '/w',
    deferRecords: { journal: new RecordJournal<OutsideRecord>(file), report: (error) => reports.push(error) },
  });
}

describe('a call decided at once: answered first, journaled before, stored after', () => {
  it('answers before the record is stored, with the record already in the journal; stores it right after, and a flush empties the journal', async () => {
    const { external, q, config } = server.rt();
    const { ref, run } = await allowLs('deferred-1');
    const journal = path.join(config.dataDir, OUTSIDE_RECORDS_JOURNAL);
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'toolu_deferred_1' };
    expect(await external.decide(ref, call, { signal })).toMatchObject({ decision: 'allow' });
    // Read in the same turn as the answer: queued before the store, so not stored yet; journaled.
    expect(await q.events.listEvents({ runId: run.id })).toEqual([]);
    expect(readFileSync(journal, 'utf8')).toContain('toolu_deferred_1');
    const events = await eventually(
      () => q.events.listEvents({ runId: run.id }),
      (rows) => rows.length > 0,
    );
    expect(events.map((e) => [e.type, e.data.toolCallId])).toEqual([['tool_call', 'toolu_deferred_1']]);
    const audit = (await q.audit.listAudit({ runId: run.id })).items;
    expect(audit).toMatchObject([{ kind: 'decision', action: 'allow', tool: 'bash' }]);
    // Stored, and its line stays while the journal is small (a start would find it stored).
    expect(readFileSync(journal, 'utf8')).toContain('toolu_deferred_1');
    await external.flushRecords();
    expect(readFileSync(journal, 'utf8')).toBe('');
  });

  it('a read issued after the answer left (a later turn) finds the record', async () => {
    const { external, q } = server.rt();
    const { ref, run } = await allowLs('deferred-2');
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'toolu_deferred_2' };
    await external.decide(ref, call, { signal });
    await new Promise((r) => setImmediate(r));
    expect((await q.events.listEvents({ runId: run.id })).map((e) => e.type)).toEqual(['tool_call']);
  });

  it('a denial at once is deferred alike: tool_call and the denial, stored together', async () => {
    const { external, q } = server.rt();
    const ref = { ...session, externalId: 'deferred-deny' };
    const run = await q.runs.openExternalRun(ref);
    // The default policy denies `rm -rf /` outright.
    const call = { tool: 'bash', params: { command: 'rm -rf /' }, workspace: '/w', callId: 'toolu_denied' };
    const answer = await external.decide(ref, call, { signal });
    expect(answer.decision).toBe('deny');
    const events = await eventually(
      () => q.events.listEvents({ runId: run.id }),
      (rows) => rows.length > 0,
    );
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
  });

  it('shutdown waits until every record answered is stored', async () => {
    const { q } = server.rt();
    const { ref, run } = await allowLs('deferred-3');
    const file = path.join(scratch, 'shutdown.journal');
    const reports: Error[] = [];
    const gate = restartedGate(file, reports);
    for (let i = 0; i < 5; i++)
      await gate.decide(ref, { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: `t${i}` }, { signal });
    await gate.shutdown();
    expect(await q.events.listEvents({ runId: run.id })).toHaveLength(5);
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(reports).toEqual([]);
  });
});

describe('a process that stops between the answer and the store loses nothing', () => {
  it('the next start stores the journaled record once, with the time it was decided', async () => {
    const { q } = server.rt();
    const { ref, run, file, reports, stopped } = await allowedWhileStopped('deferred-crash', 'crash');
    const before = Date.now();
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'toolu_crash' };
    expect(await stopped.decide(ref, call, { signal })).toMatchObject({ decision: 'allow' });
    await eventually(
      async () => reports.length,
      (n) => n > 0,
    );
    expect(reports[0]!.message).toMatch(/kept in the journal/);
    expect(await q.events.listEvents({ runId: run.id })).toEqual([]);
    const decidedBy = Date.now();
    await new Promise((r) => setTimeout(r, 50));

    // The next start.
    const restarted = restartedGate(file);
    expect(await restarted.recoverRecords()).toBe(1);
    const events = await q.events.listEvents({ runId: run.id });
    expect(events.map((e) => [e.type, e.data.toolCallId])).toEqual([['tool_call', 'toolu_crash']]);
    const [row] = (await q.audit.listAudit({ runId: run.id })).items;
    expect(row).toMatchObject({ kind: 'decision', action: 'allow', tool: 'bash' });
    // Its time is the decision's, not the recovery's (which came at least 50 ms later).
    expect(row!.at.getTime()).toBeGreaterThanOrEqual(before - 5);
    expect(row!.at.getTime()).toBeLessThanOrEqual(decidedBy + 5);
    expect(readFileSync(file, 'utf8')).toBe('');
    // Once: a start after it finds nothing left.
    expect(await restartedGate(file).recoverRecords()).toBe(0);
    expect(await q.events.listEvents({ runId: run.id })).toHaveLength(1);
  });

  it('a journaled record that was stored already (stopped before the journal was emptied) is not stored twice', async () => {
    const { q } = server.rt();
    const { ref, run } = await allowLs('deferred-twice');
    const file = path.join(scratch, 'twice.journal');
    const gate = restartedGate(file);
    await gate.decide(ref, { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'tw' }, { signal });
    const line = readFileSync(file, 'utf8');
    await gate.shutdown();
    expect(await q.events.listEvents({ runId: run.id })).toHaveLength(1);
    // The same line still in the file, as if the process stopped right after storing it.
    const journal = new RecordJournal<OutsideRecord>(file);
    journal.write(JSON.parse(line) as OutsideRecord);
    journal.close();
    expect(await restartedGate(file).recoverRecords()).toBe(0);
    expect(await q.events.listEvents({ runId: run.id })).toHaveLength(1);
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('journals what its audit row is made from, not the row; a line an older version wrote with its rows is still stored, once', async () => {
    const { q } = server.rt();
    const { ref, run, file, reports, stopped } = await allowedWhileStopped('deferred-audit-source', 'audit-source');
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'toolu_source' };
    await stopped.decide(ref, call, { signal });
    await eventually(
      async () => reports.length,
      (n) => n > 0,
    );
    const line = JSON.parse(readFileSync(file, 'utf8')) as OutsideRecord;
    expect(line.audit).toEqual([]);
    expect(line.auditFrom).toMatchObject({ run: { id: run.id, source: 'hook' }, events: 1 });
    expect(await restartedGate(file).recoverRecords()).toBe(1);
    const [made] = (await q.audit.listAudit({ runId: run.id })).items;
    expect(made).toMatchObject({ id: line.auditFrom!.id, kind: 'decision', action: 'allow', tool: 'bash' });

    // The same decision as an older version journaled it: the rows themselves, with their ids.
    const older = path.join(scratch, 'audit-rows.journal');
    const { auditFrom: _source, ...rest } = line;
    const rowId = 'audit-row-of-an-older-journal';
    const journal = new RecordJournal<OutsideRecord>(older);
    const event = { ...line.events[0]!, toolCallId: 'toolu_older' } as OutsideRecord['events'][number];
    const row = { ...made!, id: rowId, at: made!.at.toISOString(), details: made!.details ?? undefined };
    journal.write({ ...rest, events: [event], audit: [row] as OutsideRecord['audit'] });
    journal.close();
    expect(await restartedGate(older).recoverRecords()).toBe(1);
    const rows = (await q.audit.listAudit({ runId: run.id })).items;
    expect(rows.map((r) => r.id).sort()).toEqual([line.auditFrom!.id, rowId].sort());
    // Journaled again, as if stopped before the file was emptied: recognised by its row's id.
    const again = new RecordJournal<OutsideRecord>(older);
    again.write({ ...rest, events: [event], audit: [row] as OutsideRecord['audit'] });
    again.close();
    expect(await restartedGate(older).recoverRecords()).toBe(0);
    expect((await q.audit.listAudit({ runId: run.id })).items).toHaveLength(2);
  });

  it("a claimed call's result (an MCP client's call Gatehouse ran): the next start stores it and finishes the claim, once", async () => {
    const { q } = server.rt();
    const { run, file, reports, stopped } = await allowedWhileStopped('deferred-finish', 'finish');
    await q.toolExecutions.claimToolExecution({ runId: run.id, toolCallId: 'mcp-7' });
    const result = { tool: 'bash', agent: 'client', output: 'a.txt', isError: false };
    await stopped.finishCall(run.id, 'mcp-7', result);
    await eventually(
      async () => reports.length,
      (n) => n > 0,
    );
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-7' })).toMatchObject({
      status: 'claimed',
    });
    const restarted = restartedGate(file);
    expect(await restarted.recoverRecords()).toBe(1);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-7' })).toMatchObject({
      status: 'done',
      result: { tool: 'bash', agent: 'client', isError: false },
    });
    const events = await q.events.listEvents({ runId: run.id });
    expect(events.map((e) => e.data)).toEqual([
      {
        type: 'tool_result',
        runId: run.id,
        agentId: 'client',
        parents: [],
        toolCallId: 'mcp-7',
        name: 'bash',
        output: 'a.txt',
        isError: false,
        denied: false,
      },
    ]);
    // Journaled again as if stopped before the journal was emptied: finished already, not stored twice.
    const journal = new RecordJournal<OutsideRecord>(file);
    journal.write({
      runId: run.id,
      events: [events[0]!.data as RunEvent],
      audit: [],
      finish: { toolCallId: 'mcp-7', result: null },
    });
    journal.close();
    expect(await restartedGate(file).recoverRecords()).toBe(0);
    expect(await q.events.listEvents({ runId: run.id })).toHaveLength(1);
  });
});

describe("an MCP client's allowed call: its claim won in memory, stored with its result after the answer", () => {
  const claiming = { signal, claim: true, waitForHuman: false };
  const result = { tool: 'bash', agent: 'client', output: 'a.txt', isError: false };
  // What the finished claim keeps: the output is in the tool_result event stored with it.
  const claimed = { tool: 'bash', agent: 'client', isError: false };

  it('claims before any statement; the claim, then the result, are stored after the call finished', async () => {
    const { q } = server.rt();
    const { ref, run } = await allowLs('claim-held');
    const gate = restartedGate(path.join(scratch, 'claim-held.journal'));
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-h1' };
    expect(await gate.decide(ref, call, claiming)).toMatchObject({ decision: 'allow', claimed: true });
    // The same id again (a retried request): refused in memory, the first claim not stored yet.
    expect(await gate.decide(ref, call, claiming)).toMatchObject({ claimed: false });
    await new Promise((r) => setImmediate(r));
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-h1' })).toBeUndefined();
    await gate.finishCall(run.id, 'mcp-h1', result);
    await gate.flushRecords();
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-h1' })).toMatchObject({
      status: 'done',
      result: claimed,
    });
    const events = await q.events.listEvents({ runId: run.id });
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_call', 'tool_result']);
    // One decision row per tool_call, made when stored: the result merged after the claim adds none.
    const audit = (await q.audit.listAudit({ runId: run.id })).items;
    expect(audit.map((row) => [row.kind, row.action, row.tool])).toEqual([
      ['decision', 'allow', 'bash'],
      ['decision', 'allow', 'bash'],
    ]);
  });

  it('a call that ends within the hold: its claim and its result are stored in one statement, and the journal is emptied', async () => {
    const { q, runs } = server.rt();
    const { ref, run } = await allowLs('claim-one');
    const statements: string[][] = [];
    const counting = {
      append: (...args: Parameters<RunLog['append']>) => runs.log.append(...args),
      appendClaiming: (...args: Parameters<RunLog['appendClaiming']>) => {
        statements.push(args[1].map((e) => e.type));
        return runs.log.appendClaiming(...args);
      },
    } as unknown as RunLog;
    const file = path.join(scratch, 'claim-one.journal');
    const gate = restartedGate(file, [], counting);
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-o1' };
    expect(await gate.decide(ref, call, claiming)).toMatchObject({ claimed: true });
    await gate.finishCall(run.id, 'mcp-o1', result);
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    await gate.flushRecords();
    expect(statements).toEqual([['tool_call', 'tool_result']]);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-o1' })).toMatchObject({
      status: 'done',
      result: claimed,
    });
    expect((await q.events.listEvents({ runId: run.id })).map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
    expect(readFileSync(file, 'utf8')).toBe('');
    await gate.shutdown();
  });

  it("the result's output is journaled and stored once, in its tool_result event; the claim keeps the rest", async () => {
    const { q } = server.rt();
    const { ref, run } = await allowLs('claim-once');
    const file = path.join(scratch, 'claim-once.journal');
    const gate = restartedGate(file);
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-once' };
    expect(await gate.decide(ref, call, claiming)).toMatchObject({ claimed: true });
    const large = { tool: 'bash', agent: 'client', output: `marker-${'x'.repeat(10_000)}`, isError: true };
    await gate.finishCall(run.id, 'mcp-once', large);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]!.split('marker-')).toHaveLength(2);
    expect(lines[1]!.length).toBeLessThan(large.output.length + 1_000);
    await gate.flushRecords();
    const execution = await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-once' });
    expect(execution?.status).toBe('done');
    expect(execution?.result).toEqual({ tool: 'bash', agent: 'client', isError: true });
    const events = await q.events.listEvents({ runId: run.id });
    expect(events.at(-1)!.data).toMatchObject({
      type: 'tool_result',
      output: large.output,
      isError: true,
      denied: false,
    });
    await gate.shutdown();
  });

  it('stored before the answer where nothing is journaled (PostgreSQL): the same event, and the claim keeps the rest', async () => {
    const { q, broker, config, runs } = server.rt();
    const { ref, run } = await allowLs('claim-direct');
    const gate = new ExternalGate({
      q,
      broker,
      grants: new DbGrantStore(q.grants),
      log: runs.log,
      approvalTimeoutS: config.approvalTimeoutS,
      workspace: '/w',
    });
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-direct' };
    expect(await gate.decide(ref, call, claiming)).toMatchObject({ claimed: true });
    await gate.finishCall(run.id, 'mcp-direct', result);
    const execution = await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-direct' });
    expect(execution?.status).toBe('done');
    expect(execution?.result).toEqual(claimed);
    const events = await q.events.listEvents({ runId: run.id });
    expect(events.at(-1)!.data).toMatchObject({ type: 'tool_result', toolCallId: 'mcp-direct', output: 'a.txt' });
    await gate.shutdown();
  });

  it('a result journaled by an older version (with its result in the line) is stored with that result', async () => {
    const { q } = server.rt();
    const { run } = await allowLs('claim-older');
    await q.toolExecutions.claimToolExecution({ runId: run.id, toolCallId: 'mcp-older' });
    const file = path.join(scratch, 'claim-older.journal');
    const journal = new RecordJournal<OutsideRecord>(file);
    const event: RunEvent = {
      type: 'tool_result',
      runId: run.id,
      agentId: 'client',
      parents: [],
      toolCallId: 'mcp-older',
      name: 'bash',
      output: 'a.txt',
      isError: false,
      denied: false,
    };
    const stored = { tool: 'bash', agent: 'client', output: 'as it was', isError: false };
    journal.write({ runId: run.id, events: [event], audit: [], finish: { toolCallId: 'mcp-older', result: stored } });
    journal.close();
    expect(await restartedGate(file).recoverRecords()).toBe(1);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-older' })).toMatchObject({
      status: 'done',
      result: stored,
    });
  });

  it('claim and result stored as one and not stored (the process stopped): the next start stores both, once', async () => {
    const { q } = server.rt();
    const { ref, run, file, reports, stopped } = await allowedWhileStopped('claim-one-crash', 'claim-one-crash');
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-oc' };
    expect(await stopped.decide(ref, call, claiming)).toMatchObject({ claimed: true });
    await stopped.finishCall(run.id, 'mcp-oc', result);
    await stopped.flushRecords();
    expect(reports).toHaveLength(1);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-oc' })).toBeUndefined();

    const restarted = restartedGate(file);
    expect(await restarted.recoverRecords()).toBe(2);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-oc' })).toMatchObject({
      status: 'done',
      result: claimed,
    });
    expect((await q.events.listEvents({ runId: run.id })).map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
    expect(await restarted.decide(ref, call, claiming)).toMatchObject({ claimed: false });
    await restarted.shutdown();
  });

  it('a claim that could not be stored keeps its result from being stored before it: the next start stores both, the result once', async () => {
    const { q, runs } = server.rt();
    const { ref, run } = await allowLs('claim-unstored');
    let failures = 1;
    const flaky = {
      append: (...args: Parameters<RunLog['append']>) => runs.log.append(...args),
      appendClaiming: (...args: Parameters<RunLog['appendClaiming']>) =>
        failures-- > 0 ? Promise.reject(new Error('the database is busy')) : runs.log.appendClaiming(...args),
    } as unknown as RunLog;
    const file = path.join(scratch, 'claim-unstored.journal');
    const reports: Error[] = [];
    const gate = restartedGate(file, reports, flaky);
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-u1' };
    expect(await gate.decide(ref, call, claiming)).toMatchObject({ claimed: true });
    // Released without its result (as a slow call's claim is after a second) and not stored.
    await gate.flushRecords();
    expect(reports.map((e) => e.message)).toEqual([expect.stringMatching(/the database is busy/)]);
    await gate.finishCall(run.id, 'mcp-u1', result);
    await gate.flushRecords();
    expect(reports[1]?.message).toMatch(/the record it follows could not be stored/);
    expect(await q.events.listEvents({ runId: run.id })).toEqual([]);

    expect(await restartedGate(file).recoverRecords()).toBe(2);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-u1' })).toMatchObject({
      status: 'done',
      result: claimed,
    });
    expect((await q.events.listEvents({ runId: run.id })).map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
  });

  it('a slow call: its claim is stored while it still runs (within a second), not held until it ends', async () => {
    const { q } = server.rt();
    const { ref, run } = await allowLs('claim-slow');
    const gate = restartedGate(path.join(scratch, 'claim-slow.journal'));
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-s1' };
    await gate.decide(ref, call, claiming);
    const row = await eventually(
      () => q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-s1' }),
      (found) => found !== undefined,
    );
    expect(row).toMatchObject({ status: 'claimed' });
    await gate.finishCall(run.id, 'mcp-s1', result);
    await gate.flushRecords();
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-s1' })).toMatchObject({
      status: 'done',
    });
  });

  it('a call id an earlier process claimed, or a person-approved claim, is never run again', async () => {
    const { q } = server.rt();
    const { ref, run } = await allowLs('claim-known');
    await q.toolExecutions.claimToolExecution({ runId: run.id, toolCallId: 'mcp-old' });
    const gate = restartedGate(path.join(scratch, 'claim-known.journal'));
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w' };
    expect(await gate.decide(ref, { ...call, callId: 'mcp-old' }, claiming)).toMatchObject({ claimed: false });
    // After a person's approval the claim is stored at once, and the ledger knows it.
    expect(await gate.claim(run.id, 'mcp-approved')).toBe(true);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-approved' })).toMatchObject({
      status: 'claimed',
    });
    expect(await gate.decide(ref, { ...call, callId: 'mcp-approved' }, claiming)).toMatchObject({ claimed: false });
    expect(await gate.claim(run.id, 'mcp-approved')).toBe(false);
    await gate.shutdown();
  });

  it('a process that stops after claiming (the tool may have run): the next start stores the claim, and the id never runs again', async () => {
    const { q } = server.rt();
    const { ref, run, file, reports, stopped } = await allowedWhileStopped('claim-crash', 'claim-crash');
    const call = { tool: 'bash', params: { command: 'ls' }, workspace: '/w', callId: 'mcp-c1' };
    expect(await stopped.decide(ref, call, claiming)).toMatchObject({ claimed: true });
    await stopped.flushRecords();
    expect(reports[0]!.message).toMatch(/kept in the journal/);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-c1' })).toBeUndefined();

    const restarted = restartedGate(file);
    expect(await restarted.recoverRecords()).toBe(1);
    expect(await q.toolExecutions.getToolExecution({ runId: run.id, toolCallId: 'mcp-c1' })).toMatchObject({
      status: 'claimed',
    });
    expect(await restarted.decide(ref, call, claiming)).toMatchObject({ claimed: false });
    await restarted.shutdown();
  });
});
