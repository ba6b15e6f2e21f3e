// The server's end of a spare bash (spawn-helper-program.ts): the helper starts bash ahead of time
// and hands over the write end of the pipe it reads its command from, so an approved command goes
// to bash in one write from the server, with no hop through the helper. One spare takes one
// command; a spare that cannot take this one is left for the next, or let go of.
import { statSync } from 'node:fs';
import type { Socket } from 'node:net';

/** bash reads the pipe a byte at a time: longer commands start a fresh bash instead. */
export const SPARE_MAX_BYTES = 4096;

export interface ArmedSpare {
  sid: number;
  pid: number;
  /** The environment it was started with (envKey). */
  key: string;
  /** The write end of its command pipe. */
  socket: Socket;
}

export const envKey = (env: Record<string, string>): string => JSON.stringify(env);

/** Same environment, a command that fits the pipe protocol, and a directory that exists (else a fresh start reports ENOENT). */
export function fitsSpare(spare: ArmedSpare, request: { command: string; cwd: string; env: Record<string, string> }): boolean {
  if (spare.socket.destroyed || !spare.socket.writable) return false;
  if (spare.key !== envKey(request.env)) return false;
  if (request.command.includes('\0') || request.cwd.includes('\0') || Buffer.byteLength(request.command) > SPARE_MAX_BYTES) return false;
  try {
    return statSync(request.cwd).isDirectory();
  } catch {
    return false;
  }
}

/** Gives the spare its directory and command (each NUL-terminated) and closes the pipe. */
export function handCommand(spare: ArmedSpare, request: { command: string; cwd: string }): void {
  spare.socket.end(`${request.cwd}\0${request.command}\0`);
}

/** Lets go of a spare without a command: bash reads EOF and exits without running anything. */
export function letGo(spare: ArmedSpare): void {
  spare.socket.destroy();
}
