// Changes to what a decision reads besides the call itself: the policy, the grants, a run's mode, the
// settings (a token's choice of the tools its MCP clients may call). Each change made through these queries is counted once its statement (or transaction)
// has ended, so a cache of those inputs (lib/server/external/decision-inputs.ts) can tell that what
// it holds may be stale: it stamps what it loads with the count read before loading, and reloads
// when the count moved. Only changes made in this process are counted: a cache may trust the count
// only where no other process can write (embedded PGlite, which one process holds under its lock).
import type { ChangeCounter } from './credential-changes';

export class DecisionChanges implements ChangeCounter {
  private count = 0;

  get version(): number {
    return this.count;
  }

  /** A policy, grant, run-mode or setting write ended (committed or not: a needless reload is harmless). */
  changed(): void {
    this.count += 1;
  }
}

/**
 * Runs a write and counts it once it has ended, whatever its outcome. Inside a transaction the
 * count goes to the transaction's list and is made after the commit (queries.ts).
 */
export async function counted<T>(changed: () => void, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    changed();
  }
}
