// The execution claims of outside runs (an MCP client's calls), decided in memory where this
// process alone writes the database (embedded PGlite, held under its lock). A call runs only for
// the first claimer of its (run, call id); the database row (tool_executions) is what makes that
// hold across restarts. Here a run's claimed call ids are read once, the first time one of its
// calls is claimed in this process, and every later claim is decided against that set and added to
// it, so an allowed call can start its tool before its claim's statement (which the gate journals
// first and stores after: deferred-records.ts). Claims decided here are the only ones made on these
// runs: the claim after a person's approval goes through `claimStored`, which stores it first.
// Memory: at most MAX_RUNS runs are kept; the one used longest ago goes first, and only while
// nothing is waiting to be stored (else its set could be read back without a claim still in flight).

/** Runs whose claims are kept. */
const MAX_RUNS = 1_000;

export interface ClaimLedgerDeps {
  /** The call ids of the run's stored claims. */
  load(runId: string): Promise<string[]>;
  /** Stores a claim now: true only for the first claimer (the tool_executions insert). */
  store(runId: string, toolCallId: string): Promise<boolean>;
  /** True while a deferred claim may still be on its way to the database. */
  storing(): boolean;
}

/** A run's claimed call ids: being read (`ready`), and once read (`ids`). */
interface RunClaims {
  ready: Promise<Set<string>>;
  ids?: Set<string>;
}

export class ClaimLedger {
  private readonly runs = new Map<string, RunClaims>();

  constructor(
    private readonly deps: ClaimLedgerDeps,
    private readonly maxRuns = MAX_RUNS,
  ) {}

  /**
   * Decides the claim in memory: true only the first time (this process or any before it) the
   * call is claimed. The caller must journal and store the claim (deferred-records.ts).
   */
  async claim(runId: string, toolCallId: string): Promise<boolean> {
    const claims = this.claimsOf(runId);
    return take(claims.ids ?? (await claims.ready), toolCallId);
  }

  /**
   * `claim` without waiting: decided the same way when the run's claims are read already (true or
   * false), else undefined and nothing claimed (then `claim`).
   */
  claimNow(runId: string, toolCallId: string): boolean | undefined {
    const ids = this.runs.get(runId)?.ids;
    if (!ids) return undefined;
    this.claimsOf(runId); // used now: the most recent
    return take(ids, toolCallId);
  }

  /** True when the run's claims are read: `claimNow` decides its calls. */
  claimsKnown(runId: string): boolean {
    return this.runs.get(runId)?.ids !== undefined;
  }

  /** Claims and stores at once (a call a person approved: no hurry), known here from then on. */
  async claimStored(runId: string, toolCallId: string): Promise<boolean> {
    const claims = this.claimsOf(runId);
    if (!take(claims.ids ?? (await claims.ready), toolCallId)) return false;
    return this.deps.store(runId, toolCallId);
  }

  private claimsOf(runId: string): RunClaims {
    const claims = this.runs.get(runId);
    if (claims) {
      // Most recently used last.
      this.runs.delete(runId);
      this.runs.set(runId, claims);
      return claims;
    }
    const loading = {} as RunClaims;
    loading.ready = this.deps.load(runId).then((ids) => (loading.ids = new Set(ids)));
    // A failed read is not kept: the next claim reads again.
    loading.ready.catch(() => this.runs.get(runId) === loading && this.runs.delete(runId));
    this.runs.set(runId, loading);
    this.evict();
    return loading;
  }

  private evict(): void {
    if (this.runs.size <= this.maxRuns || this.deps.storing()) return;
    for (const runId of this.runs.keys()) {
      if (this.runs.size <= this.maxRuns) break;
      this.runs.delete(runId);
    }
  }
}

/** Claims `toolCallId` in `claimed`: true only the first time. */
function take(claimed: Set<string>, toolCallId: string): boolean {
  if (claimed.has(toolCallId)) return false;
  claimed.add(toolCallId);
  return true;
}
