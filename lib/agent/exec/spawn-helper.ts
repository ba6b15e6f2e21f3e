// Starts shell commands for the bash tool, through a small long-lived helper process when it can.
// Why: fork() copies the parent's page tables, so spawning bash from a server holding a few
// hundred MB (PGlite's WebAssembly heap above all) costs 8-15 ms, against about 1.5 ms from a
// 40 MB helper. The helper is started on first use (that call, and any made before it is ready,
// spawns directly) and is stopped with the server: it exits when its IPC channel closes.
// When the helper has a spare bash ready, it hands this process the spare's pipes: the command is
// written straight to it and its output read here (spare-bash.ts); the helper reports its exit.
// Invariants: a command is sent to the helper (or written to a spare) at most once and never
// re-sent elsewhere, so a helper dying mid-request can fail a call but never run it twice; when it
// dies, the process groups it reported (and the spare a command went to) are killed from here;
// after repeated deaths, commands spawn directly.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fitsSpare, handCommand, letGo, readSpare, type ArmedSpare, type SpareRun } from './spare-bash';
import type { CommandEvents, CommandHandle, CommandRequest } from './command';
import { HELPER_PROGRAM } from './spawn-helper-program';

export type { CommandEvents, CommandHandle, CommandRequest };

type Mode = 'auto' | 'direct';
let mode: Mode = process.env.GATEHOUSE_SPAWN_HELPER === '0' ? 'direct' : 'auto';
let helper: Helper | undefined;
let deaths = 0;
const MAX_DEATHS = 3;

/** 'direct' turns the helper off (tests, or GATEHOUSE_SPAWN_HELPER=0); 'auto' uses it when it is up. */
export function setSpawnMode(next: Mode): void {
  mode = next;
  if (next === 'direct') stopSpawnHelper();
}

/** Stops the helper (it kills whatever it still runs). The next command starts a new one. */
export function stopSpawnHelper(): void {
  helper?.stop();
  helper = undefined;
}

/** Starts the helper now rather than on first use; resolves with its pid once it is up (undefined if it cannot start). */
export async function startSpawnHelper(timeoutMs = 10_000): Promise<number | undefined> {
  if (mode === 'direct') return undefined;
  helper ??= new Helper();
  const current = helper;
  const deadline = Date.now() + timeoutMs;
  while (!current.ready && helper === current && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  return current.ready ? current.child.pid : undefined;
}

/** The pid of the spare bash this process would hand the next command to (for tests). */
export function armedSparePid(): number | undefined {
  return helper?.armedPid;
}

/** The helper's pid once it is up (for tests and the benchmark's memory figure). */
export function spawnHelperPid(): number | undefined {
  return helper?.ready ? helper.child.pid : undefined;
}

/**
 * Has the helper keep a bash ready for commands in this cwd and environment (the helper starts
 * now if it is not up), so that the first command after start-up is quick too.
 */
export function prepareCommands(request: Pick<CommandRequest, 'cwd' | 'env'>): void {
  if (mode !== 'auto' || deaths >= MAX_DEATHS) return;
  helper ??= new Helper();
  helper.prepare(request);
}

/** Starts `/bin/bash -c command` in a new process group, with stdin closed. */
export function startCommand(request: CommandRequest, events: CommandEvents): CommandHandle {
  if (mode === 'auto' && deaths < MAX_DEATHS) {
    helper ??= new Helper();
    if (helper.ready) return helper.run(request, events);
  }
  return startDirect(request, events);
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

function startDirect(request: CommandRequest, events: CommandEvents): CommandHandle {
  // detached: the child leads a new process group, so kill(-pid) reaches everything it started.
  const child = spawn('/bin/bash', ['-c', request.command], {
    cwd: request.cwd,
    // The cast only drops NODE_ENV, which Next's ambient types make required: the child gets none.
    env: request.env as NodeJS.ProcessEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', events.onData);
  child.stderr.on('data', events.onData);
  child.on('error', events.onError);
  child.on('exit', (code, signal) => {
    killGroup(child.pid);
    events.onExit(code, signal);
  });
  child.on('close', () => events.onClose());
  return {
    via: 'direct',
    warm: false,
    kill: () => killGroup(child.pid),
    release: () => {
      child.stdout.destroy();
      child.stderr.destroy();
    },
  };
}

interface Job {
  events: CommandEvents;
  pid?: number;
  warm: boolean;
  killRequested: boolean;
  /** A spare took it: its output is read here. */
  spare?: SpareRun;
}

/** At most this many spares are held (the helper keeps two ready for the current environment). */
const MAX_ARMED = 2;

/** The helper is told a spare was used at its first output or exit, or this long after: the next spare's start does not compete with the command's. */
const SPARE_USED_AFTER_MS = 30;

type HelperMessage =
  | { t: 'ready' }
  | { t: 'spare'; sid: number; pid: number; key: string }
  | { t: 'spare-out'; sid: number; fd: number }
  | { t: 'spare-exit'; sid: number; code: number | null; signal: NodeJS.Signals | null }
  | { t: 'spawned'; id: number; pid: number; warm?: boolean }
  | { t: 'error'; id: number; message: string }
  | { t: 'out'; id: number; data: Buffer | Uint8Array }
  | { t: 'exit'; id: number; code: number | null; signal: NodeJS.Signals | null }
  | { t: 'close'; id: number; total: number };

class Helper {
  readonly child: ChildProcess;
  ready = false;
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  private gone = false;
  /** Spare bashes this process may hand commands to, oldest first (the helper keeps two ready). */
  private armed: ArmedSpare[] = [];
  /** Output pipes of spares whose command pipe has not arrived yet, by sid. */
  private readonly outputs = new Map<number, Socket[]>();
  /** Spares that took a command, by sid, until they exit; `timer` tells the helper they were used. */
  private readonly usedSpares = new Map<number, { job: Job; timer: NodeJS.Timeout | undefined }>();

  constructor() {
    // A bare environment: the helper passes each command the scrubbed one it is given.
    this.child = spawn(process.execPath, ['--max-old-space-size=64', '-e', HELPER_PROGRAM], {
      env: {} as NodeJS.ProcessEnv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    this.child.on('message', (message: HelperMessage, handle: unknown) =>
      this.receive(message, handle as Socket | undefined),
    );
    this.child.on('error', () => this.lost());
    this.child.on('exit', () => this.lost());
    this.idle();
  }

  get armedPid(): number | undefined {
    return this.armed[0]?.pid;
  }

  run(request: CommandRequest, events: CommandEvents): CommandHandle {
    const id = this.nextId++;
    const job: Job = { events, warm: false, killRequested: false };
    this.jobs.set(id, job);
    this.busy();
    const spare = this.armed.find((armed) => fitsSpare(armed, request));
    if (spare) {
      // The command goes to the waiting bash now, and its output comes here: the helper is not
      // woken while it starts. It is told once the command is under way (its first output, its
      // exit, or 30 ms), to prepare the next spare.
      this.armed = this.armed.filter((armed) => armed !== spare);
      job.pid = spare.pid;
      job.warm = true;
      job.spare = readSpare(spare, request.maxOutputBytes, events, {
        heard: () => this.tellUsed(spare.sid),
        ended: () => this.finish(id),
      });
      handCommand(spare, request);
      const timer = setTimeout(() => this.tellUsed(spare.sid), SPARE_USED_AFTER_MS);
      timer.unref();
      this.usedSpares.set(spare.sid, { job, timer });
    } else {
      this.child.send({
        t: 'spawn',
        id,
        command: request.command,
        cwd: request.cwd,
        env: request.env,
        maxBytes: request.maxOutputBytes,
      });
    }
    return {
      via: 'helper',
      get warm() {
        return job.warm;
      },
      kill: () => {
        job.killRequested = true;
        killGroup(job.pid);
      },
      release: () => {
        if (!this.jobs.delete(id)) return;
        if (job.spare) job.spare.release();
        else if (!this.gone) this.child.send({ t: 'release', id });
        this.idle();
      },
    };
  }

  prepare(request: Pick<CommandRequest, 'cwd' | 'env'>): void {
    if (!this.gone) this.child.send({ t: 'prepare', cwd: request.cwd, env: request.env });
  }

  stop(): void {
    this.gone = true;
    this.dropArmed();
    this.dropOutputs();
    this.child.disconnect?.();
    this.child.kill('SIGTERM');
  }

  private receive(message: HelperMessage, handle: Socket | undefined): void {
    if (message.t === 'ready') {
      this.ready = true;
      deaths = 0;
      return;
    }
    if (message.t === 'spare-out') return this.holdOutput(message.sid, handle);
    if (message.t === 'spare') return this.arm(message, handle);
    if (message.t === 'spare-exit') return this.spareExited(message);
    const job = this.jobs.get(message.id);
    if (!job) return;
    switch (message.t) {
      case 'spawned':
        job.pid = message.pid;
        job.warm = message.warm === true;
        if (job.killRequested) killGroup(job.pid);
        break;
      case 'error':
        this.finish(message.id);
        job.events.onError(new Error(message.message));
        break;
      case 'out':
        job.events.onData(Buffer.isBuffer(message.data) ? message.data : Buffer.from(message.data));
        break;
      case 'exit':
        job.events.onExit(message.code, message.signal);
        break;
      case 'close':
        this.finish(message.id);
        job.events.onClose(message.total);
        break;
    }
  }

  /** A spare's stdout or stderr, which comes before its command pipe. */
  private holdOutput(sid: number, socket: Socket | undefined): void {
    if (!socket) return;
    socket.on('error', () => undefined);
    socket.unref(); // an armed spare does not keep this process alive; a command's output does (readSpare)
    if (this.gone) return void socket.destroy();
    this.outputs.set(sid, [...(this.outputs.get(sid) ?? []), socket]);
  }

  /** A new spare joins those armed; spares for another environment, and any beyond two, are let go of unused. */
  private arm(message: { sid: number; pid: number; key: string }, socket: Socket | undefined): void {
    const outputs = this.outputs.get(message.sid) ?? [];
    this.outputs.delete(message.sid);
    socket?.on('error', () => undefined); // a spare that died first: EPIPE, and its exit is reported by the helper
    socket?.unref();
    const spare = socket ? { sid: message.sid, pid: message.pid, key: message.key, socket, outputs } : undefined;
    if (this.gone || !spare || outputs.length !== 2) {
      socket?.destroy();
      for (const output of outputs) output.destroy();
      if (!this.gone) this.child.send({ t: 'forget', sid: message.sid });
      return;
    }
    for (const old of this.armed) if (old.key !== spare.key) this.forgetArmed(old);
    this.armed.push(spare);
    while (this.armed.length > MAX_ARMED) this.forgetArmed(this.armed[0]!);
  }

  /** A spare exited: the end of the command it took, or (unused) it is let go of. */
  private spareExited(message: { sid: number; code: number | null; signal: NodeJS.Signals | null }): void {
    const armed = this.armed.find((spare) => spare.sid === message.sid);
    if (armed) this.forgetArmed(armed);
    for (const output of this.outputs.get(message.sid) ?? []) output.destroy();
    this.outputs.delete(message.sid);
    const used = this.usedSpares.get(message.sid);
    if (!used) return;
    this.tellUsed(message.sid);
    this.usedSpares.delete(message.sid);
    used.job.spare?.exited(message.code, message.signal);
  }

  private tellUsed(sid: number): void {
    const used = this.usedSpares.get(sid);
    if (!used?.timer) return;
    clearTimeout(used.timer);
    used.timer = undefined;
    if (!this.gone) this.child.send({ t: 'used', sid });
  }

  private dropOutputs(): void {
    for (const outputs of this.outputs.values()) for (const output of outputs) output.destroy();
    this.outputs.clear();
    for (const used of this.usedSpares.values()) clearTimeout(used.timer);
    this.usedSpares.clear();
  }

  private forgetArmed(spare: ArmedSpare): void {
    this.armed = this.armed.filter((armed) => armed !== spare);
    letGo(spare);
    if (!this.gone) this.child.send({ t: 'forget', sid: spare.sid });
  }

  private dropArmed(): void {
    for (const spare of this.armed) letGo(spare);
    this.armed = [];
  }

  private finish(id: number): void {
    this.jobs.delete(id);
    this.idle();
  }

  /** The helper died: its commands are killed and reported; later commands start another helper, or spawn directly. */
  private lost(): void {
    if (helper === this) helper = undefined;
    if (!this.gone) deaths++;
    this.gone = true;
    this.ready = false;
    this.dropArmed();
    this.dropOutputs();
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) {
      job.spare?.release();
      killGroup(job.pid);
      if (job.pid === undefined)
        job.events.onError(
          new Error('the spawn helper exited before confirming the start (the command is not run again)'),
        );
      else job.events.onLost('the spawn helper exited while the command ran; process group killed');
    }
  }

  /** The helper keeps the event loop alive only while it runs commands, like a direct child would. */
  private busy(): void {
    this.child.ref();
    (this.child.channel as { ref?: () => void } | undefined)?.ref?.();
  }

  private idle(): void {
    if (this.jobs.size > 0) return;
    this.child.unref();
    (this.child.channel as { unref?: () => void } | undefined)?.unref?.();
  }
}
