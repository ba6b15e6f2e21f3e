// The policy the server's agents decide with: the latest stored version, read for every decision
// (the library's policy source), so a policy saved while a run goes decides its next call. Where
// one process alone writes the database (embedded PGlite) it is served from memory, reloaded once
// the count of decision-input changes moved (lib/db/decision-changes.ts), as the outside gate's
// inputs are (external/decision-inputs.ts): no query per call. With PostgreSQL another instance may
// save it, so each call reads the latest version's number, and the document only when it changed.
import type { ChangeCounter, Queries } from '../../db';
import { compilePolicy, type CompiledPolicy } from '../../policy';
import { loadPolicy, type StoredPolicy } from '../stores/policy-store';

/** What the audit records of the policy that decided: its version and how many rules it has. */
export interface PolicyVersion {
  version: number;
  rules: number;
}

export class StoredPolicySource {
  private current: { version: number; compiled: CompiledPolicy } | undefined;
  private stamp = -1;
  private readonly versions = new WeakMap<CompiledPolicy, PolicyVersion>();

  /** `changes`: the count to trust, only when no other process writes the database; undefined: read every time. */
  constructor(
    private readonly q: Queries,
    private readonly changes: ChangeCounter | undefined,
  ) {}

  /** The latest stored policy, compiled: at once when it is in memory and nothing changed since. */
  get(): CompiledPolicy | Promise<CompiledPolicy> {
    const stamp = this.changes?.version;
    if (this.current && stamp !== undefined && stamp === this.stamp) return this.current.compiled;
    return this.load(stamp);
  }

  /** The version a compiled policy of this source is (undefined for any other policy). */
  versionOf(policy: CompiledPolicy): PolicyVersion | undefined {
    return this.versions.get(policy);
  }

  // The count is read before loading: a write that ends during the load moves it, and the next
  // call loads again.
  private async load(stamp: number | undefined): Promise<CompiledPolicy> {
    const latest = await this.q.policies.getLatestVersion();
    if (!this.current || this.current.version !== latest) {
      const stored = await loadPolicy(this.q);
      if (this.current?.version !== stored.version) this.adopt(stored);
    }
    this.stamp = stamp ?? -1;
    return this.current!.compiled;
  }

  private adopt(stored: StoredPolicy): void {
    const compiled = compilePolicy(stored.policy);
    this.versions.set(compiled, { version: stored.version, rules: stored.policy.rules.length });
    this.current = { version: stored.version, compiled };
    this.stamp = -1;
  }
}
