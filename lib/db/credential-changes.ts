// Changes to users, API tokens and sessions, counted so a credential cache (lib/auth/authenticate.ts)
// can tell that what it holds may be stale, and announced so open streams re-check the credential
// they were opened with (lib/server/http/stream-guard.ts). Changes made through this process's queries
// bump the count and tell the listeners (with several instances: a NOTIFY to the others); changes
// another instance announces bump it and reach the watchers without being re-announced. A change
// names the user it concerns; one that names nobody (lost notices after a reconnect) concerns all.

/** What a cache compares: the count when it read, against the count now. */
export interface ChangeCounter {
  readonly version: number;
}

/** The user whose credentials changed; undefined: anyone's may have. */
export type CredentialChangeListener = (userId: string | undefined) => void;

export class CredentialChanges implements ChangeCounter {
  private count = 0;
  private readonly local = new Set<CredentialChangeListener>();
  private readonly watchers = new Set<CredentialChangeListener>();

  get version(): number {
    return this.count;
  }

  /** A user's credentials were changed through these queries (after the statement or transaction committed). */
  changed(userId?: string): void {
    this.count += 1;
    for (const listener of [...this.local]) listener(userId);
    this.tellWatchers(userId);
  }

  /** Another instance changed a user's credentials (undefined: its notices may have been lost): drop what is cached. */
  changedElsewhere(userId?: string): void {
    this.count += 1;
    this.tellWatchers(userId);
  }

  /** Called after every local change (to announce it to other instances); returns the removal. */
  onChange(listener: CredentialChangeListener): () => void {
    this.local.add(listener);
    return () => this.local.delete(listener);
  }

  /** Called after every change, local or announced by another instance; returns the removal. */
  watch(listener: CredentialChangeListener): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  private tellWatchers(userId: string | undefined): void {
    for (const listener of [...this.watchers]) {
      try {
        listener(userId);
      } catch {
        // One watcher's failure must not keep the others (or the change's caller) from going on.
      }
    }
  }
}
