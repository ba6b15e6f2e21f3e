// What the bash tool asks of the execution engine and what it hears back: a command to start, the
// events of its run, and a handle on it. Shared by the spawn helper's client (spawn-helper.ts) and
// the spare bashes it hands over (spare-bash.ts), so neither imports the other for its types.

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
