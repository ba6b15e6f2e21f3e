import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { bashTool, createBashTool } from './bash';
import { setSpawnMode, startSpawnHelper } from '../exec/spawn-helper';
import { tempWorkspace, toolContext, type TempWorkspace } from './test-support';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
});
afterEach(() => t.cleanup());

const run = (command: string, tool = bashTool, signal?: AbortSignal) =>
  tool.execute({ command }, toolContext(t.workspace, signal ? { signal } : {}));

/**
 * Blocks this thread (no event is handled meanwhile) until `done` holds: what happens in other
 * processes then is not yet seen here, as when a cancel arrives just before an exit report.
 */
function blockUntil(done: () => boolean, budgetMs = 10_000): void {
  const end = Date.now() + budgetMs;
  while (!done()) if (Date.now() > end) throw new Error('blockUntil: condition not met within the budget');
}

/** Exited, as the kernel sees it: gone (reaped by the helper) or a zombie (not yet reaped here). */
function hasExited(pid: number): boolean {
  if (!existsSync(`/proc/${pid}`)) return true;
  try {
    return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Dead, or a zombie waiting to be reaped: either way it runs no more. */
async function isRunning(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/\) Z /.test(stat);
}

// Every behaviour holds on both ways of starting a command: through the spawn helper and directly.
describe.each(['helper', 'direct'] as const)('bash (%s spawn)', (via) => {
  beforeAll(async () => {
    setSpawnMode(via === 'helper' ? 'auto' : 'direct');
    if (via === 'helper') expect(await startSpawnHelper()).toBeGreaterThan(0);
  });
  afterAll(() => setSpawnMode('auto'));

  it('runs for real in the workspace directory', async () => {
    const result = await run('pwd; echo hi > made.txt');
    expect(result.output).toBe(`${t.workspace}\n`);
    expect(result.isError).toBeUndefined();
    expect(result.metadata).toMatchObject({ exitCode: 0, timedOut: false, spawnedVia: via });
    expect(await readFile(path.join(t.workspace, 'made.txt'), 'utf8')).toBe('hi\n');
  });

  it('scrubs the environment: no server variables, HOME is the workspace', async () => {
    process.env.GATEHOUSE_TEST_SECRET = 'hunter2';
    try {
      const result = await run('env | sort');
      expect(result.output).not.toContain('hunter2');
      expect(result.output).not.toContain('GATEHOUSE_TEST_SECRET');
      expect(result.output).toContain(`HOME=${t.workspace}\n`);
      expect(result.output).toContain('PATH=/usr/local/bin:/usr/bin:/bin\n');
      expect(result.output).toContain('LANG=C.UTF-8\n');
      expect(result.output).toContain('TERM=dumb\n');
    } finally {
      delete process.env.GATEHOUSE_TEST_SECRET;
    }
  });

  it('reports a non-zero exit code as an error, with stdout and stderr', async () => {
    const result = await run('echo out; echo err >&2; exit 3');
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/out\n/);
    expect(result.output).toMatch(/err\n/);
    expect(result.output.endsWith('[exit code 3]')).toBe(true);
    expect(result.metadata).toMatchObject({ exitCode: 3 });
  });

  it('closes stdin', async () => {
    const result = await run('cat; echo done');
    expect(result.output).toBe('done\n');
  });

  it('kills the whole process group at the time limit', async () => {
    const tool = createBashTool({ timeoutMs: 500 });
    const started = Date.now();
    const result = await run('sleep 30 & echo $! > bg.pid; sleep 30; wait', tool);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ timedOut: true });
    expect(result.output).toContain('[timed out after 0.5 s; process group killed]');
    const pid = Number(await readFile(path.join(t.workspace, 'bg.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    // SIGKILL is delivered by the time the pipes closed; reaping by init may lag a moment.
    await vi.waitFor(async () => expect(await isRunning(pid)).toBe(false), { timeout: 2000 });
  });

  it('does not let background jobs outlive the command', async () => {
    const started = Date.now();
    const result = await run('sleep 30 & echo $! > bg.pid; echo started');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.output).toBe('started\n');
    const pid = Number(await readFile(path.join(t.workspace, 'bg.pid'), 'utf8'));
    await vi.waitFor(async () => expect(await isRunning(pid)).toBe(false), { timeout: 2000 });
  });

  it('stops reading soon after exit when a process that left the group holds the output open', async () => {
    const started = Date.now();
    // The escaped process records its pid only once it has its own session; wait for that.
    const result = await run(
      `setsid bash -c 'echo $$ > escaped.pid; exec sleep 30' & until [ -s escaped.pid ]; do :; done; echo done`,
    );
    const pid = Number(await readFile(path.join(t.workspace, 'escaped.pid'), 'utf8'));
    try {
      expect(Date.now() - started).toBeLessThan(5000);
      expect(result.output).toBe('done\n[a detached process kept the output open; stopped reading]');
      expect(result.isError).toBeUndefined();
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  it('caps the output and marks the truncation', async () => {
    const tool = createBashTool({ maxOutputBytes: 1024 });
    const result = await run('head -c 200000 /dev/zero | tr "\\0" x; echo; echo tail >&2', tool);
    expect(result.truncated).toBe(true);
    expect(result.output).toBe(`${'x'.repeat(1024)}\n[output truncated: 195.3 KiB total]`);
    expect(result.metadata).toMatchObject({ outputBytes: 200006 });
  });

  it('stops promptly when the run is aborted', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const pending = run('touch started; sleep 30', bashTool, controller.signal);
    await vi.waitFor(() => readFile(path.join(t.workspace, 'started')), { timeout: 3000 });
    controller.abort();
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(result.metadata).toMatchObject({ aborted: true });
    expect(result.output).toContain('[aborted: run cancelled; process group killed]');
  });

  it('a command that exited before the cancel took effect reports its real exit and output, not a kill', async () => {
    const controller = new AbortController();
    const pending = run('echo out; echo done > written.txt; echo $$ > pid.txt', bashTool, controller.signal);
    const pidFile = path.join(t.workspace, 'pid.txt');
    // The command runs to its end while this process handles no event: its exit report waits
    // behind the cancel, as when a run is cancelled a few ms after its command was approved.
    blockUntil(() => /^\d+\n$/.test(existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : ''));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    blockUntil(() => hasExited(pid));
    controller.abort();
    const result = await pending;
    expect(await readFile(path.join(t.workspace, 'written.txt'), 'utf8')).toBe('done\n');
    expect(result.output).toBe('out\n[the run was cancelled after the command had exited]');
    expect(result.output).not.toContain('killed');
    expect(result.isError).toBeUndefined();
    expect(result.metadata).toMatchObject({ exitCode: 0, signal: null, aborted: false, cancelledAfterExit: true });
  });

  it('a command still running when cancelled is reported killed, with its signal', async () => {
    const controller = new AbortController();
    const pending = run('echo $$ > pid.txt; sleep 30', bashTool, controller.signal);
    const pidFile = path.join(t.workspace, 'pid.txt');
    await vi.waitFor(async () => expect(await readFile(pidFile, 'utf8')).toMatch(/^\d+\n$/), { timeout: 3000 });
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.output).toBe('[aborted: run cancelled; process group killed]');
    expect(result.metadata).toMatchObject({ aborted: true, signal: 'SIGKILL', cancelledAfterExit: false });
  });

  it('does not start when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run('echo hi > should-not-exist', bashTool, controller.signal);
    expect(result.isError).toBe(true);
    await expect(readFile(path.join(t.workspace, 'should-not-exist'))).rejects.toThrow();
  });
});
