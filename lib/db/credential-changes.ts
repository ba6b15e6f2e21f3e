// Changes to users and API tokens, counted so a credential cache (lib/auth/authenticate.ts) can tell
// that what it holds may be stale. Changes made through this process's queries bump the count and
// tell the listeners (with several instances: a NOTIFY to the others); changes another instance
// announces bump it without re-announcing.

/** What a cache compares: the count when it read, against the count now. */
export interface ChangeCounter {
  readonly version: number;
}

export class CredentialChanges implements ChangeCounter {
  private count = 0;
  private readonly listeners = new Set<() => void>();

  get version(): number {
    return this.count;
  }

  /** A user or token was changed through these queries (after the statement or transaction committed). */
  changed(): void {
    this.count += 1;
    for (const listener of [...this.listeners]) listener();
  }

  /** Another instance changed one, or its notices may have been lost: drop what is cached. */
  changedElsewhere(): void {
    this.count += 1;
  }

  /** Called after every local change; returns the removal. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
