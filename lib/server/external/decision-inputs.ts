// What the outside gate reads for each call besides the call itself: the session's run (its id and
// mode), the policy in force and the session's grants. An allowed call of Claude Code waits for
// these before its answer, so where one process alone writes the database (embedded PGlite, held
// under its lock) they are served from memory: each is stamped with the count of decision-input
// changes (lib/db/decision-changes.ts) read before it was loaded, and loaded again once any policy,
// grant or run-mode write ended since. A grant revoked, consumed or added, a policy saved or a mode
// switched therefore reaches the very next decision. With PostgreSQL another instance may write
// them, so each call reads them (no cache).
import type { GrantStore } from '../../agent';
import type { ChangeCounter, Queries, RunRow } from '../../db';
import { compilePolicy, type CompiledPolicy, type Rule } from '../../policy';
import { loadPolicy } from '../stores/policy-store';
import type { ExternalSessionRef } from './types';
import { cutText } from '../../db/storable-json';

export interface CompiledVersion {
  version: number;
  policy: CompiledPolicy;
}

/** Sessions (runs, grant lists) kept; the oldest goes first beyond it. */
const MAX_SESSIONS = 1_000;

const runKey = (ref: ExternalSessionRef) => `${ref.source}\u0000${ref.owner}\u0000${ref.agent}\u0000${ref.externalId}`;

interface Stamped<T> {
  stamp: number;
  value: T;
}

export class DecisionInputs {
  private compiled: CompiledVersion | undefined;
  private policyStamp = -1;
  private readonly runs = new Map<string, Stamped<RunRow>>();
  private readonly grantLists = new Map<string, Stamped<Rule[]>>();

  /** `changes`: the count to trust, only when no other process writes the database; undefined: read every time. */
  constructor(
    private readonly q: Queries,
    private readonly grantStore: GrantStore,
    private readonly changes: ChangeCounter | undefined,
  ) {}

  /** The session's run, opened on its first call. */
  async run(ref: ExternalSessionRef): Promise<RunRow> {
    return this.cached(this.runs, runKey(ref), () =>
      this.q.runs.openExternalRun({ ...ref, title: cutText(ref.title, 200) }),
    );
  }

  /**
   * The session's run, the policy and the session's grants as `run`, `policy` and `grants` give
   * them when none of them has to be read (each in memory and no change since), else undefined.
   */
  now(ref: ExternalSessionRef): { run: RunRow; compiled: CompiledVersion; grants: Rule[] } | undefined {
    const stamp = this.changes?.version;
    if (stamp === undefined || !this.compiled || this.policyStamp !== stamp) return undefined;
    const run = this.runs.get(runKey(ref));
    if (run?.stamp !== stamp) return undefined;
    const grants = this.grantLists.get(run.value.sessionId);
    if (grants?.stamp !== stamp) return undefined;
    return { run: run.value, compiled: this.compiled, grants: grants.value };
  }

  /** The grants a call of this session may use (the session's and the global ones). */
  async grants(sessionId: string): Promise<Rule[]> {
    return this.cached(this.grantLists, sessionId, () => this.grantStore.list(sessionId));
  }

  /**
   * The stored policy, compiled once per version. Without a trusted count each call reads the
   * latest version's number, and the document (parsed, validated, compiled) only when it changed.
   */
  async policy(): Promise<CompiledVersion> {
    const stamp = this.changes?.version;
    if (this.compiled && stamp !== undefined && stamp === this.policyStamp) return this.compiled;
    const latest = await this.q.policies.getLatestVersion();
    if (!this.compiled || this.compiled.version !== latest) {
      const stored = await loadPolicy(this.q);
      if (this.compiled?.version !== stored.version)
        this.compiled = { version: stored.version, policy: compilePolicy(stored.policy) };
    }
    this.policyStamp = stamp ?? -1;
    return this.compiled;
  }

  private async cached<T>(map: Map<string, Stamped<T>>, key: string, load: () => Promise<T>): Promise<T> {
    const stamp = this.changes?.version;
    if (stamp === undefined) return load();
    const hit = map.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = await load();
    map.delete(key);
    map.set(key, { stamp, value });
    if (map.size > MAX_SESSIONS) map.delete(map.keys().next().value!);
    return value;
  }
}
