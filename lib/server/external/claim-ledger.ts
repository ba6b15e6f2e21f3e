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

export class ClaimLedger {
  private readonly runs = new Map<string, Promise<Set<string>>>();

  constructor(
    private readonly deps: ClaimLedgerDeps,
    private readonly maxRuns = MAX_RUNS,
  ) {}

  /**
   * Decides the claim in memory: true only the first time (this process or any before it) the
   * call is claimed. The caller must journal and store the claim (deferred-records.ts).
   */
  async claim(runId: string, toolCallId: string): Promise<boolean> {
    const claimed = await this.claimsOf(runId);
    if (claimed.has(toolCallId)) return false;
    claimed.add(toolCallId);
    return true;
  }

  /** Claims and stores at once (a call a person approved: no hurry), known here from then on. */
  async claimStored(runId: string, toolCallId: string): Promise<boolean> {
    const claimed = await this.claimsOf(runId);
    if (claimed.has(toolCallId)) return false;
    claimed.add(toolCallId);
    return this.deps.store(runId, toolCallId);
  }

  private claimsOf(runId: string): Promise<Set<string>> {
    let claims = this.runs.get(runId);
    if (claims) {
      // Most recently used last.
      this.runs.delete(runId);
      this.runs.set(runId, claims);
      return claims;
    }
    claims = this.deps.load(runId).then((ids) => new Set(ids));
    // A failed read is not kept: the next claim reads again.
    claims.catch(() => this.runs.get(runId) === claims && this.runs.delete(runId));
    this.runs.set(runId, claims);
    this.evict();
    return claims;
  }

  private evict(): void {
    if (this.runs.size <= this.maxRuns || this.deps.storing()) return;
    for (const runId of this.runs.keys()) {
      if (this.runs.size <= this.maxRuns) break;
      this.runs.delete(runId);
    }
  }
}
