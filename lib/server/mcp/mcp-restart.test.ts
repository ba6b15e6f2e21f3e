// "An approved call runs once, across restarts", for an upstream MCP tool of Gatehouse's own
// agent: a real restart (the first process is killed with SIGKILL; the second opens the same
// PGlite directory and recovers) and a real upstream (the SDK server over Streamable HTTP, which
// counts the calls it receives). A call claimed before the process died may have run, so it is
// never sent again: the run resumes with it reported interrupted. A call approved but not yet
// claimed has not started, so the resumed run claims it and sends it, once.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { seedPgliteDir } from '../../db/test-support/pgdata-template';
import { followRun, ofType } from '../test-support/run-manager';
import { bootProcess, type BootedProcess } from './restart.test-support';
import { startSdkServer, type SdkTestServer } from './sdk-server.test-support';

const CHILD = path.resolve('lib/server/mcp/restart-child.test-support.ts');

let dir: string;
let sdk: SdkTestServer;
let release: () => void;
let child: ChildProcess | undefined;
let second: BootedProcess | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-mcp-restart-')));
  // An empty migrated cluster copied in (the restart is the point here, not the first start).
  await seedPgliteDir(path.join(dir, 'data'));
  const held = new Promise<void>((resolve) => (release = resolve));
  // The upstream holds every call until the test ends: the first process dies with it in flight.
  sdk = await startSdkServer({ onCall: () => held });
});
afterEach(async () => {
  release();
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await second?.close();
  second = undefined;
  await sdk.close();
  await rm(dir, { recursive: true, force: true });
});

/** The first life: a child process that raised the relay (and approved it, with `approve`). */
async function firstLife(mode: 'approve' | 'wait', text: string) {
  // tsx as a loader of this very process (not its CLI, which would run the script in a grandchild
  // that SIGKILL would not reach).
  child = spawn(process.execPath, ['--import', 'tsx', CHILD, path.join(dir, 'data'), sdk.url, dir, mode, text], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child!.once('exit', resolve));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child!.stdout! }).once('line', resolve);
    child!.once('exit', (code) => reject(new Error(`the first process exited (${code}) before its relay`)));
  });
  const kill = async () => {
    child!.kill('SIGKILL');
    await exited;
  };
  return { ...(JSON.parse(line) as { runId: string; sessionId: string; relayId: string }), kill };
}

async function until(what: string, probe: () => boolean | Promise<boolean>) {
  // A bound on waiting far above the few hundred ms each step takes here.
  const deadline = Date.now() + 30_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

it(
  'an approved and claimed mcp__ call in flight when the process died is not sent again: the run resumes, the upstream saw one call',
  { timeout: 120_000 },
  async () => {
    const first = await firstLife('approve', 'claimed-once');
    await until('the upstream to receive the call', () => sdk.calls.length === 1);
    await first.kill();

    second = await bootProcess(path.join(dir, 'data'), sdk.url, dir);
    const { q, runs } = second;
    expect(await q.toolExecutions.listToolExecutions({ runId: first.runId })).toMatchObject([{ status: 'claimed' }]);
    expect(await runs.recover()).toEqual([first.runId]);
    const events = await followRun(runs, first.runId, 0);
    const [result] = ofType(events, 'tool_result');
    expect(result).toMatchObject({ name: 'mcp__notes__notes', isError: true, denied: false });
    expect(result!.output).toMatch(/was interrupted while running .* it is not run again/);
    expect(ofType(events, 'relay_resolved')).toMatchObject([{ status: 'approved', decidedBy: 'alice' }]);
    expect(events.map((e) => e.type)).toContain('resumed');
    expect(events.at(-1)?.type).toBe('done');
    expect(await q.runs.getRun({ id: first.runId })).toMatchObject({ status: 'done' });
    expect(sdk.calls).toEqual([{ tool: 'notes', args: { text: 'claimed-once' } }]);
  },
);

it(
  'an mcp__ call approved but not yet claimed when the process died runs once after the restart',
  { timeout: 120_000 },
  async () => {
    const first = await firstLife('wait', 'approved-later');
    await first.kill();
    expect(sdk.calls).toEqual([]);

    second = await bootProcess(path.join(dir, 'data'), sdk.url, dir);
    const { q, runs } = second;
    // The decision reached the database while nothing executed the run (another instance, or the
    // moment between the settle and the claim): approved, and no claim.
    const settled = await q.relays.resolveRelay({
      id: first.relayId,
      status: 'approved',
      response: { approved: true },
      decidedBy: 'alice',
    });
    expect(settled.ok).toBe(true);
    expect(await q.toolExecutions.listToolExecutions({ runId: first.runId })).toEqual([]);
    release();
    expect(await runs.recover()).toEqual([first.runId]);
    const events = await followRun(runs, first.runId, 0);
    expect(ofType(events, 'tool_result')).toMatchObject([
      {
        name: 'mcp__notes__notes',
        isError: false,
        denied: false,
        output: expect.stringContaining('stored: approved-later'),
      },
    ]);
    expect(events.at(-1)?.type).toBe('done');
    expect(await q.toolExecutions.listToolExecutions({ runId: first.runId })).toMatchObject([{ status: 'done' }]);
    expect(sdk.calls).toEqual([{ tool: 'notes', args: { text: 'approved-later' } }]);
    // Recovering again (another restart) finds nothing to do and sends nothing.
    expect(await runs.recover()).toEqual([]);
    expect(sdk.calls).toHaveLength(1);
  },
);
