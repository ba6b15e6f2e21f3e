// A session's grants: the rules "Always Allow" added (and allow-once grants), which later calls of
// the session are evaluated with. A store interface so the server can persist them; in memory here.
import type { Rule } from '../policy';

export interface GrantStore {
  list(sessionId: string): Promise<Rule[]>;
  add(sessionId: string, rules: Rule[], scope: 'session' | 'global', createdBy: string): Promise<void>;
  /** Uses up allow-once grants; false (where the store can tell) when another call used one up first. */
  consume(sessionId: string, grants: Rule[]): Promise<boolean | void>;
}

export class MemoryGrantStore implements GrantStore {
  private readonly bySession = new Map<string, Rule[]>();
  private global: Rule[] = [];

  constructor(initial: { sessionId?: string; grants?: Rule[] } = {}) {
    if (initial.sessionId && initial.grants) this.bySession.set(initial.sessionId, [...initial.grants]);
  }

  async list(sessionId: string): Promise<Rule[]> {
    return [...this.global, ...(this.bySession.get(sessionId) ?? [])];
  }

  async add(sessionId: string, rules: Rule[], scope: 'session' | 'global'): Promise<void> {
    if (scope === 'global') this.global = [...this.global, ...rules];
    else this.bySession.set(sessionId, [...(this.bySession.get(sessionId) ?? []), ...rules]);
  }

  async consume(sessionId: string, grants: Rule[]): Promise<void> {
    const used = new Set(grants);
    this.global = this.global.filter((g) => !used.has(g));
    this.bySession.set(
      sessionId,
      (this.bySession.get(sessionId) ?? []).filter((g) => !used.has(g)),
    );
  }
}
