import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bashTool } from '../tools/bash';
import {
  armedSparePid,
  prepareCommands,
  setSpawnMode,
  spawnHelperPid,
  startCommand,
  startSpawnHelper,
  stopSpawnHelper,
} from './spawn-helper';
import { scrubbedEnv } from '../tools/bash';
import { tempWorkspace, toolContext, type TempWorkspace } from '../tools/test-support';

let t: TempWorkspace;
beforeEach(async () => {
  t = await tempWorkspace();
  setSpawnMode('auto');
});
afterEach(async () => {
  setSpawnMode('auto');
  await t.cleanup();
});

const run = (command: string) => bashTool.execute({ command }, toolContext(t.workspace));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function isRunning(pid: number): Promise<boolean> {
  if (!alive(pid)) return false;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/\) Z /.test(stat);
}

describe('spawn helper', () => {
  it('starts once, runs commands from its own small process, and is reused', async () => {
    const pid = await startSpawnHelper();
    expect(pid).toBeGreaterThan(0);
    const a = await run('echo $PPID');
    const b = await run('echo $PPID');
    // bash's parent is the helper, not this process.
    expect(Number(a.output)).toBe(pid);
    expect(Number(b.output)).toBe(pid);
    expect(a.metadata).toMatchObject({ spawnedVia: 'helper' });
    expect(spawnHelperPid()).toBe(pid);
    // Its RSS is that of a bare Node process (tens of MB), whatever this process holds.
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    expect(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024).toBeLessThan(120);
  });

  it('gets no variable from the server environment', async () => {
    const pid = await startSpawnHelper();
    const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
    expect(environ.split('\0').filter((v) => v && !v.startsWith('NODE_CHANNEL_'))).toEqual([]);
  });

  it('when the helper dies mid-command: the command group is killed, the call ends as an error, the next call runs', async () => {
    const helper = await startSpawnHelper();
    const pending = run('sleep 30 & echo $! > bg.pid; touch started; wait');
    await vi.waitFor(() => readFile(path.join(t.workspace, 'started')), { timeout: 3000 });
    const bg = Number(await readFile(path.join(t.workspace, 'bg.pid'), 'utf8'));
    process.kill(helper!, 'SIGKILL');
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.output).toContain('[the spawn helper exited while the command ran; process group killed]');
    await vi.waitFor(async () => expect(await isRunning(bg)).toBe(false), { timeout: 2000 });
    const next = await run('echo again');
    expect(next.output).toBe('again\n');
    const restarted = await startSpawnHelper();
    expect(restarted).toBeGreaterThan(0);
    expect(restarted).not.toBe(helper);
  });

  it('never runs a command twice when the helper dies around its start', async () => {
    const helper = await startSpawnHelper();
    const pending = run('echo x >> runs.txt');
    process.kill(helper!, 'SIGKILL');
    const outcome = await pending.then(
      (result) => ({ result }),
      (error: Error) => ({ error }),
    );
    const lines = (await readFile(path.join(t.workspace, 'runs.txt'), 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean);
    expect(lines.length).toBeLessThanOrEqual(1);
    if ('error' in outcome)
      expect(outcome.error.message).toMatch(
        /Could not start \/bin\/bash: the spawn helper exited before confirming the start/,
      );
    else if (lines.length === 0) expect(outcome.result.isError).toBe(true);
  });

  it('kills what it started and exits when the server lets go of it', async () => {
    const helper = await startSpawnHelper();
    const pending = run('sleep 30 & echo $! > bg.pid; touch started; wait');
    await vi.waitFor(() => readFile(path.join(t.workspace, 'started')), { timeout: 3000 });
    const bg = Number(await readFile(path.join(t.workspace, 'bg.pid'), 'utf8'));
    stopSpawnHelper();
    const result = await pending;
    expect(result.isError).toBe(true);
    await vi.waitFor(async () => expect(await isRunning(bg)).toBe(false), { timeout: 2000 });
    await vi.waitFor(() => expect(alive(helper!)).toBe(false), { timeout: 2000 });
  });

  it('exits, killing its spares, when the server dies while a spare is being handed over', async () => {
    // A server that starts the helper, asks for spares and exits a few ms later: the spares' pipes
    // are on their way over the channel, unacknowledged.
    const server = path.join(t.workspace, 'server.mts');
    await writeFile(
      server,
      `import { prepareCommands, startSpawnHelper } from ${JSON.stringify(path.resolve(__dirname, 'spawn-helper.ts'))};\n` +
        `const pid = await startSpawnHelper();\n` +
        `prepareCommands({ cwd: '/tmp', env: { PATH: '/usr/bin:/bin' } });\n` +
        `setTimeout(() => { console.log(pid); process.exit(0); }, Number(process.argv[2]));\n`,
    );
    const helpers: number[] = [];
    for (const delay of [0, 3, 10]) {
      const stdout = await new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          ['--import', 'tsx', server, String(delay)],
          { cwd: path.resolve(__dirname, '../../..') },
          (error, out) => (error ? reject(error) : resolve(out)),
        ),
      );
      helpers.push(Number(stdout.trim()));
    }
    for (const helper of helpers) {
      expect(helper).toBeGreaterThan(0);
      await vi.waitFor(() => expect(alive(helper)).toBe(false), { timeout: 3000 });
    }
  }, 30_000);

  it('forwards no more output than the cap (plus one byte) but counts all of it', async () => {
    await startSpawnHelper();
    const chunks: Buffer[] = [];
    const total = await new Promise<number | undefined>((resolve, reject) => {
      const handle = startCommand(
        { command: 'head -c 300000 /dev/zero', cwd: t.workspace, env: { PATH: '/usr/bin:/bin' }, maxOutputBytes: 1000 },
        { onData: (c) => chunks.push(c), onExit: () => undefined, onClose: resolve, onError: reject, onLost: reject },
      );
      expect(handle.via).toBe('helper');
    });
    expect(Buffer.concat(chunks).length).toBe(1001);
    expect(total).toBe(300000);
  });

  it('reports a command that cannot start (missing cwd) without running it', async () => {
    await startSpawnHelper();
    const error = await new Promise<Error>((resolve) => {
      startCommand(
        { command: 'echo hi', cwd: path.join(t.workspace, 'missing'), env: {}, maxOutputBytes: 100 },
        {
          onData: () => undefined,
          onExit: () => undefined,
          onClose: () => resolve(new Error('closed')),
          onError: resolve,
          onLost: () => undefined,
        },
      );
    });
    expect(error.message).toMatch(/ENOENT/);
  });

  /** Runs `command` until it ran in a spare bash (the helper prepares one shortly after each start). */
  async function runWarm(command: string) {
    for (let i = 0; i < 20; i++) {
      const result = await run(command);
      if (result.metadata?.warmStart === true) return result;
      await spareArmed();
    }
    throw new Error('no command ran in a spare bash');
  }

  /** Waits until this process holds a spare bash's command pipe; its pid. */
  async function spareArmed(): Promise<number> {
    await vi.waitFor(() => expect(armedSparePid()).toBeGreaterThan(0), { timeout: 3000 });
    return armedSparePid()!;
  }

  /** The helper's children that are spare bashes waiting for a command. */
  async function spares(helper: number): Promise<number[]> {
    const out: number[] = [];
    for (const task of await readdir(`/proc/${helper}/task`)) {
      const children = (await readFile(`/proc/${helper}/task/${task}/children`, 'utf8').catch(() => ''))
        .trim()
        .split(/\s+/)
        .filter(Boolean);
      for (const pid of children)
        if ((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes('__gatehouse_command'))
          out.push(Number(pid));
    }
    return out;
  }

  it('runs a command in a bash started ahead of time exactly as bash -c would', async () => {
    await startSpawnHelper();
    const probe =
      'echo "$_"; pwd; echo "$0 $- $SHLVL $# $BASH_EXECUTION_STRING"; env | sort; cd /; cd - >/dev/null 2>&1; echo "cd -: $?"; declare -p | grep -v -e PIPESTATUS -e PPID -e BASH_EXECUTION_STRING -e SECONDS; [ "$SECONDS" -lt 5 ] && echo "SECONDS from 0"; echo err >&2; exit 3';
    const warm = await runWarm(probe);
    setSpawnMode('direct');
    const cold = await run(probe);
    expect(warm.metadata).toMatchObject({ spawnedVia: 'helper', warmStart: true, exitCode: 3 });
    expect(warm.output).toBe(cold.output);
    expect(warm.output).toContain(`${t.workspace}\n`);
  });

  it('execs a lone program in place of the spare bash, as bash -c does, and runs everything else in it', async () => {
    const helper = await startSpawnHelper();
    const parentOf = (result: { output: string }) => Number(result.output.split(' ')[3]); // /proc/self/stat: pid (comm) state ppid
    // bash -c execs cat, so cat's parent is whatever started bash: with a spare, the helper.
    expect(parentOf(await runWarm('cat /proc/self/stat'))).toBe(helper);
    // In a pipeline (or as a builtin) it runs inside the spare bash, whose child it is.
    expect(parentOf(await runWarm('cat /proc/self/stat | cat'))).not.toBe(helper);
    // A program bash cannot find is not exec'd: the message is bash -c's.
    const missing = await runWarm('nosuchprogram --flag');
    setSpawnMode('direct');
    expect(parentOf(await run('cat /proc/self/stat'))).toBe(process.pid);
    const missingCold = await run('nosuchprogram --flag');
    expect(missing.metadata).toMatchObject({ exitCode: 127 });
    expect(missing.output).toBe(missingCold.output);
  });

  it('starts a fresh bash for a long command, and for another workspace', async () => {
    await startSpawnHelper();
    await runWarm('true');
    const long = await run(`echo ${'x'.repeat(5000)} | wc -c`);
    expect(long).toMatchObject({ output: '5001\n', metadata: { warmStart: false } });
    prepareCommands({ cwd: t.workspace, env: scrubbedEnv(t.workspace) });
    const other = path.join(t.workspace, 'other');
    await mkdir(other);
    const elsewhere = await bashTool.execute({ command: 'pwd' }, toolContext(other));
    expect(elsewhere).toMatchObject({ output: `${other}\n`, metadata: { warmStart: false } });
  });

  it('a spare bash runs in the workspace as it is now, also when the directory was made anew', async () => {
    await startSpawnHelper();
    await runWarm('true');
    await spareArmed();
    await rm(t.workspace, { recursive: true, force: true });
    await mkdir(t.workspace);
    await writeFile(path.join(t.workspace, 'fresh.txt'), '');
    const result = await run('pwd; ls');
    expect(result.metadata).toMatchObject({ warmStart: true });
    expect(result.output).toBe(`${t.workspace}\nfresh.txt\n`);
  });

  it('when the helper dies, its spare bash exits without running anything', async () => {
    const helper = (await startSpawnHelper())!;
    await runWarm('true');
    await vi.waitFor(async () => expect(await spares(helper)).toHaveLength(2), { timeout: 3000 });
    const ready = await spares(helper);
    process.kill(helper, 'SIGKILL');
    for (const spare of ready)
      await vi.waitFor(async () => expect(await isRunning(spare)).toBe(false), { timeout: 3000 });
  });

  it('writes an approved command straight to the spare bash: it starts while the helper is stopped, and its output arrives after', async () => {
    const helper = (await startSpawnHelper())!;
    await runWarm('true');
    await spareArmed();
    process.kill(helper, 'SIGSTOP');
    let pending: ReturnType<typeof run>;
    try {
      pending = run('touch started; echo out; exit 4');
      await vi.waitFor(() => readFile(path.join(t.workspace, 'started')), { timeout: 3000 });
    } finally {
      process.kill(helper, 'SIGCONT');
    }
    const result = await pending;
    expect(result.output).toMatch(/^out\n/);
    expect(result.metadata).toMatchObject({ spawnedVia: 'helper', warmStart: true, exitCode: 4 });
  });

  /** Starts `command` in the armed spare bash with its own events; resolves at close with what it saw. */
  async function startInSpare(command: string, maxOutputBytes = 10_000) {
    await spareArmed();
    const chunks: Buffer[] = [];
    let exit: { code: number | null; signal: string | null } | undefined;
    let handle!: ReturnType<typeof startCommand>;
    const closed = new Promise<number | undefined>((resolve, reject) => {
      handle = startCommand(
        { command, cwd: t.workspace, env: scrubbedEnv(t.workspace), maxOutputBytes },
        {
          onData: (c) => chunks.push(c),
          onExit: (code, signal) => (exit = { code, signal }),
          onClose: resolve,
          onError: reject,
          onLost: reject,
        },
      );
    });
    expect(handle.warm).toBe(true);
    return { handle, closed, output: () => Buffer.concat(chunks).toString(), exit: () => exit };
  }

  it("reads a spare's output itself: it arrives while the helper is stopped, and the exit after", async () => {
    const helper = (await startSpawnHelper())!;
    await runWarm('true');
    await spareArmed();
    process.kill(helper, 'SIGSTOP');
    let command: Awaited<ReturnType<typeof startInSpare>>;
    try {
      command = await startInSpare('echo out; echo err >&2; exit 5');
      await vi.waitFor(() => expect(command.output()).toBe('out\nerr\n'), { timeout: 3000 });
      // The exit is the helper's to see: nothing closes before it runs again.
      expect(command.exit()).toBeUndefined();
    } finally {
      process.kill(helper, 'SIGCONT');
    }
    await command.closed;
    expect(command.exit()).toEqual({ code: 5, signal: null });
  });

  it("caps a spare's output as the helper caps a command's (plus one byte), counting all of it", async () => {
    await startSpawnHelper();
    await runWarm('true');
    const command = await startInSpare('head -c 300000 /dev/zero', 1000);
    expect(await command.closed).toBe(300000);
    expect(command.output()).toHaveLength(1001);
  });

  it('has the next spare ready while a long command still runs in the last one', async () => {
    const helper = (await startSpawnHelper())!;
    await runWarm('true');
    const first = await spareArmed();
    const command = await startInSpare('touch started; sleep 30');
    await vi.waitFor(() => readFile(path.join(t.workspace, 'started')), { timeout: 3000 });
    // The used spare still runs (its bash waits for sleep) and two others wait for the next commands.
    await vi.waitFor(async () => expect(await spares(helper)).toHaveLength(3), { timeout: 3000 });
    expect(await spares(helper)).toContain(first);
    expect(armedSparePid()).not.toBe(first);
    command.handle.kill();
    await command.closed;
    expect(command.exit()).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('spares that died before they were used are let go of: the next command starts a fresh bash, then new spares are ready', async () => {
    const helper = (await startSpawnHelper())!;
    await runWarm('true');
    await vi.waitFor(async () => expect(await spares(helper)).toHaveLength(2), { timeout: 3000 });
    await new Promise((resolve) => setTimeout(resolve, 100)); // no spare is still being prepared
    const first = await spareArmed();
    const other = (await spares(helper)).find((pid) => pid !== first)!;
    process.kill(-first, 'SIGKILL');
    // The other one takes the next command.
    await vi.waitFor(() => expect(armedSparePid()).toBe(other), { timeout: 3000 });
    process.kill(-other, 'SIGKILL');
    await vi.waitFor(() => expect(armedSparePid()).toBeUndefined(), { timeout: 3000 });
    expect(await spares(helper)).toEqual([]);
    const next = await run('echo fresh');
    expect(next).toMatchObject({ output: 'fresh\n', metadata: { warmStart: false, exitCode: 0 } });
    expect(await runWarm('echo warm')).toMatchObject({ output: 'warm\n' });
  });

  it('spares for another environment replace those held, which exit without running anything', async () => {
    const helper = (await startSpawnHelper())!;
    await runWarm('true');
    await vi.waitFor(async () => expect(await spares(helper)).toHaveLength(2), { timeout: 3000 });
    const first = await spares(helper);
    prepareCommands({ cwd: t.workspace, env: { ...scrubbedEnv(t.workspace), GATEHOUSE_TEST: 'other' } });
    for (const old of first) await vi.waitFor(async () => expect(await isRunning(old)).toBe(false), { timeout: 3000 });
    await vi.waitFor(async () => expect(await spares(helper)).toHaveLength(2), { timeout: 3000 });
    const next = await spares(helper);
    expect(next.filter((pid) => first.includes(pid))).toEqual([]);
    expect(next).toContain(armedSparePid());
    expect(await readdir(t.workspace)).toEqual([]);
  });

  it('spawns directly when turned off', async () => {
    setSpawnMode('direct');
    const result = await run('echo $PPID');
    expect(Number(result.output)).toBe(process.pid);
    expect(result.metadata).toMatchObject({ spawnedVia: 'direct' });
  });
});
