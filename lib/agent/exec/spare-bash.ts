// The server's end of a spare bash (spawn-helper-program.ts): the helper starts bash ahead of time
// and hands over the read ends of its stdout and stderr and the write end of the pipe it reads its
// command from, so an approved command goes to bash in one write from the server and its output
// comes straight back, with no hop through the helper. One spare takes one command; a spare that
// cannot take this one is left for the next, or let go of.
import { statSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { CommandEvents } from './command';

/** bash reads the pipe a byte at a time: longer commands start a fresh bash instead. */
export const SPARE_MAX_BYTES = 4096;

export interface ArmedSpare {
  sid: number;
  pid: number;
  /** The environment it was started with (envKey). */
  key: string;
  /** The write end of its command pipe. */
  socket: Socket;
  /** The read ends of its stdout and stderr. */
  outputs: Socket[];
}

export const envKey = (env: Record<string, string>): string => JSON.stringify(env);

/** Same environment, a command that fits the pipe protocol, and a directory that exists (else a fresh start reports ENOENT). */
export function fitsSpare(
  spare: ArmedSpare,
  request: { command: string; cwd: string; env: Record<string, string> },
): boolean {
  if (spare.socket.destroyed || !spare.socket.writable) return false;
  if (spare.key !== envKey(request.env)) return false;
  if (
    request.command.includes('\0') ||
    request.cwd.includes('\0') ||
    Buffer.byteLength(request.command) > SPARE_MAX_BYTES
  )
    return false;
  try {
    return statSync(request.cwd).isDirectory();
  } catch {
    return false;
  }
}

/** Gives the spare its directory, its command and whether to exec it (each NUL-terminated) and closes the pipe. */
export function handCommand(spare: ArmedSpare, request: { command: string; cwd: string }): void {
  spare.socket.end(`${request.cwd}\0${request.command}\0${execsDirectly(request.command) ? '1' : ''}\0`);
}

// bash's builtins and reserved words (bash 5.2): `exec name` would run a program of that name instead.
const BUILTINS = new Set(
  (
    '. : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs disown echo enable eval exec ' +
    'exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf pushd pwd read readarray ' +
    'readonly return set shift shopt source suspend test times trap true type typeset ulimit umask unalias unset wait ' +
    '! [[ ]] case coproc do done elif else esac fi for function if in select then time until while { }'
  ).split(' '),
);
/** Words bash takes literally: no quoting, expansion, globbing, redirection, operator or comment. */
const PLAIN_WORDS = /^[A-Za-z0-9_.,:/@%+=-]+(?: +[A-Za-z0-9_.,:/@%+=-]+)*$/;

/**
 * Whether `bash -c command` would exec the command in place of the shell (bash does so for one
 * simple command that runs a program): then the spare does the same (`exec`), saving the fork of
 * eval. Conservative: plain words only, the first neither an assignment nor a builtin or keyword.
 * The spare still runs it without exec when bash cannot find the program (so "command not found"
 * reads as bash -c says it).
 */
export function execsDirectly(command: string): boolean {
  if (!PLAIN_WORDS.test(command)) return false;
  const program = command.slice(0, command.indexOf(' ') >>> 0);
  return !program.includes('=') && !BUILTINS.has(program);
}

/** Lets go of a spare without a command: bash reads EOF and exits without running anything. */
export function letGo(spare: ArmedSpare): void {
  spare.socket.destroy();
  for (const output of spare.outputs) output.destroy();
}

/** A spare that took a command: its output is read here, its exit comes from the helper. */
export interface SpareRun {
  /** The helper saw bash exit (its group is being killed). */
  exited(code: number | null, signal: NodeJS.Signals | null): void;
  /** Stop reading output (a detached process kept the pipes open): nothing more is reported. */
  release(): void;
}

/**
 * Reads a spare's output as the helper reads a command's: at most `maxBytes` + 1 bytes forwarded,
 * all of them counted, and `onClose` (with the count) once bash has exited and both pipes are
 * closed, as a child process's 'close' comes. `heard` runs once, at the first output or the end of
 * it (the command is under way); `ended` just before `onClose`.
 */
export function readSpare(
  spare: ArmedSpare,
  maxBytes: number,
  events: Pick<CommandEvents, 'onData' | 'onExit' | 'onClose'>,
  on: { heard: () => void; ended: () => void },
): SpareRun {
  let total = 0;
  let open = spare.outputs.length;
  let exited = false;
  let over = false;
  let heard = false;
  const hear = () => {
    if (heard) return;
    heard = true;
    on.heard();
  };
  const maybeClose = () => {
    if (over || !exited || open > 0) return;
    over = true;
    on.ended();
    events.onClose(total);
  };
  for (const output of spare.outputs) {
    output.ref();
    output.on('data', (chunk: Buffer) => {
      hear();
      if (over) return;
      const room = maxBytes + 1 - Math.min(total, maxBytes + 1);
      total += chunk.length;
      if (room > 0) events.onData(chunk.length > room ? chunk.subarray(0, room) : chunk);
    });
    output.once('close', () => {
      hear();
      open--;
      maybeClose();
    });
  }
  return {
    exited(code, signal) {
      if (over || exited) return;
      exited = true;
      events.onExit(code, signal);
      maybeClose();
    },
    release() {
      over = true;
      for (const output of spare.outputs) output.destroy();
    },
  };
}
