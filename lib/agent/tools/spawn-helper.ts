// Starts shell commands for the bash tool, through a small long-lived helper process when it can.
// Why: fork() copies the parent's page tables, so spawning bash from a server holding a few
// hundred MB (PGlite's WebAssembly heap above all) costs 8-15 ms, against about 1.5 ms from a
// 40 MB helper. The helper is started on first use (that call, and any made before it is ready,
// spawns directly) and is stopped with the server: it exits when its IPC channel closes.
// When the helper has a spare bash ready, it hands this process the spare's command pipe, and the
// command is written straight to it (spare-bash.ts), then bound to its job in the helper.
// Invariants: a command is sent to the helper (or written to a spare) at most once and never
// re-sent elsewhere, so a helper dying mid-request can fail a call but never run it twice; when it
// dies, the process groups it reported (and the spare a command went to) are killed from here;
// after repeated deaths, commands spawn directly.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { fitsSpare, handCommand, letGo, type ArmedSpare } from './spare-bash';
import { HELPER_PROGRAM } from './spawn-helper-program';

export interface CommandRequest {
  command: string;
  cwd: string;
  env: Record<string, string>;
  /** The caller keeps this many bytes; the helper forwards no more than one byte beyond. */
  maxOutputBytes: number;
}

export interface CommandEvents {
  onData(chunk: Buffer): void;
  /** bash exited (its process group has been or is being killed). */
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
  /** Every holder of the output pipes is gone; `total` counts all output bytes, also those not forwarded. */
  onClose(total?: number): void;
  /** bash could not be started (or its start could not be confirmed): it did not run. */
  onError(error: Error): void;
  /** The helper died while bash ran: its process group was killed; no exit or close follows. */
  onLost(message: string): void;
}

export interface CommandHandle {
  /** SIGKILL to the command's whole process group (now, or as soon as its pid is known). */
  kill(): void;
  /** Stop reading output (a detached process kept the pipes open). */
  release(): void;
  readonly via: 'helper' | 'direct';
  /** The helper handed the command to a bash it had started ahead of time. */
  readonly warm: boolean;
}

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
}

type HelperMessage =
  | { t: 'ready' }
  | { t: 'spare'; sid: number; pid: number; key: string }
  | { t: 'spare-gone'; sid: number }
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
  /** The spare bash this process may hand the next command to. */
  private armed: ArmedSpare | undefined;

  constructor() {
    // A bare environment: the helper passes each command the scrubbed one it is given.
    this.child = spawn(process.execPath, ['--max-old-space-size=64', '-e', HELPER_PROGRAM], {
      env: {} as NodeJS.ProcessEnv,
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    this.child.on('message', (message: HelperMessage, handle: unknown) => this.receive(message, handle as Socket | undefined));
    this.child.on('error', () => this.lost());
    this.child.on('exit', () => this.lost());
    this.idle();
  }

  get armedPid(): number | undefined {
    return this.armed?.pid;
  }

  run(request: CommandRequest, events: CommandEvents): CommandHandle {
    const id = this.nextId++;
    const job: Job = { events, warm: false, killRequested: false };
    this.jobs.set(id, job);
    this.busy();
    const spare = this.armed && fitsSpare(this.armed, request) ? this.armed : undefined;
    if (spare) {
      // The command goes to the waiting bash now; the helper learns whose it is after.
      this.armed = undefined;
      job.pid = spare.pid;
      job.warm = true;
      handCommand(spare, request);
      this.child.send({ t: 'bind', id, sid: spare.sid, maxBytes: request.maxOutputBytes });
    } else {
      this.child.send({ t: 'spawn', id, command: request.command, cwd: request.cwd, env: request.env, maxBytes: request.maxOutputBytes });
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
        if (!this.gone) this.child.send({ t: 'release', id });
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
    this.child.disconnect?.();
    this.child.kill('SIGTERM');
  }

  private receive(message: HelperMessage, handle: Socket | undefined): void {
    if (message.t === 'ready') {
      this.ready = true;
      deaths = 0;
      return;
    }
    if (message.t === 'spare') return this.arm(message, handle);
    if (message.t === 'spare-gone') {
      if (this.armed?.sid === message.sid) this.forgetArmed();
      return;
    }
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

  /** A new spare replaces the armed one, which is let go of unused. */
  private arm(message: { sid: number; pid: number; key: string }, socket: Socket | undefined): void {
    if (!socket) return;
    socket.on('error', () => undefined); // a spare that died first: EPIPE, and its exit is reported by the helper
    socket.unref();
    if (this.gone) {
      socket.destroy();
      return;
    }
    this.forgetArmed();
    this.armed = { sid: message.sid, pid: message.pid, key: message.key, socket };
  }

  private forgetArmed(): void {
    const armed = this.armed;
    if (!armed) return;
    this.dropArmed();
    if (!this.gone) this.child.send({ t: 'forget', sid: armed.sid });
  }

  private dropArmed(): void {
    if (this.armed) letGo(this.armed);
    this.armed = undefined;
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
    const jobs = [...this.jobs.values()];
    this.jobs.clear();
    for (const job of jobs) {
      killGroup(job.pid);
      if (job.pid === undefined) job.events.onError(new Error('the spawn helper exited before confirming the start (the command is not run again)'));
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
