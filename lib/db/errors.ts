// Typed errors of the persistence layer, so callers can tell "someone else has the database" and
// "bad input" from a failing database without parsing messages.

/** Another live process holds the embedded database's data directory. */
export class DatabaseLockedError extends Error {
  readonly code = 'database_locked';
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
    readonly lockFile: string,
  ) {
    super(
      `The embedded database in ${dataDir} is in use by process ${holderPid} (lock file ${lockFile}). ` +
        'Stop that process first, or point this one at another data directory or at PostgreSQL. ' +
        `If process ${holderPid} is not a Gatehouse server, delete the lock file.`,
    );
    this.name = 'DatabaseLockedError';
  }
}

/** A write that needs its run (events, messages) named a run that does not exist. */
export class RunNotFoundError extends Error {
  readonly code = 'not_found:run';
  constructor(readonly runId: string) {
    super(`Run ${runId} does not exist`);
    this.name = 'RunNotFoundError';
  }
}

/**
 * A fenced write (see lease-fence.ts) by an instance that no longer holds the run's lease: another
 * instance executes the run now, so this one must stop its copy without writing anything more.
 */
export class LeaseLostError extends Error {
  readonly code = 'conflict:lease_lost';
  constructor(
    readonly runId: string,
    readonly owner: string,
    /** The lease's owner now (null: released). */
    readonly holder: string | null,
  ) {
    super(`Run ${runId} is no longer executed by ${owner}${holder ? ` (${holder} holds it)` : ''}`);
    this.name = 'LeaseLostError';
  }
}

/** A pagination cursor that this module did not hand out. */
export class InvalidCursorError extends Error {
  readonly code = 'invalid_cursor';
  constructor(readonly cursor: string) {
    super('Invalid pagination cursor');
    this.name = 'InvalidCursorError';
  }
}
