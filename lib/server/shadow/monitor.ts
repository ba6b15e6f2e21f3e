// The shadow monitor: compares every real decision with a candidate policy, off the decision path.
// The gate hands it an observation (O(1): a push onto a bounded queue, or a counted drop when the
// queue is full); later, in the background, the shadow (compiled once, cached like the live
// policy) judges the same call, identical decisions are counted and differences kept, and both go
// to the database in batches. Nothing here can reach a decision: evaluation and writes happen
// after it, and their failures only count as dropped.
import type { DecisionObservation, DecisionObserver } from '../../agent';
import type { NewShadowDiff, ShadowBatch } from '../../db';
import { compilePolicy, evaluate, salvagePolicy, type CompiledPolicy, type Decision, type Policy } from '../../policy';
import { describeDecision, storedParams } from './record';

/** The current shadow, as the monitor needs it. */
export interface ShadowState {
  id: string;
  policy: Policy;
}

/** Where batches go (the shadow query module). Resolves to the differences stored. */
export interface ShadowWriter {
  recordShadowBatch(batch: ShadowBatch): Promise<number>;
}

export interface ShadowMonitorOptions {
  writer: ShadowWriter;
  /** Observations and unwritten differences held at most; beyond it observations are dropped (counted). */
  maxQueue?: number;
  /** Differences per write. */
  maxBatch?: number;
  /** How long differences wait to be written together (a burst makes one write). */
  writeDelayMs?: number;
  onError?: (error: Error) => void;
}

interface Pending {
  shadowId: string;
  observation: DecisionObservation;
  /** The stored policy the agent was built on: rules after it were added by the run (permissions, a subagent). */
  base: Policy;
  at: number;
}

interface Current extends ShadowState {
  compiled: CompiledPolicy;
  /** The shadow with a run's added rules after it, by those rules. */
  overlays: Map<string, CompiledPolicy>;
}

export class ShadowMonitor {
  private current: Current | undefined;
  private queue: Pending[] = [];
  private diffs: NewShadowDiff[] = [];
  private counts = { compared: 0, same: 0, dropped: 0 };
  private draining = false;
  private writeTimer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> | undefined;
  private readonly maxQueue: number;
  private readonly maxBatch: number;
  private readonly writeDelayMs: number;
  /** Since start, for tests and logs: observations dropped (queue full), batches whose write failed. */
  readonly stats = { dropped: 0, writeFailures: 0, evaluationFailures: 0 };

  constructor(private readonly options: ShadowMonitorOptions) {
    this.maxQueue = options.maxQueue ?? 2000;
    this.maxBatch = options.maxBatch ?? 200;
    this.writeDelayMs = options.writeDelayMs ?? 250;
  }

  /** The shadow in force (undefined: none). A new one starts fresh: what was queued for the old one is discarded. */
  set(state: ShadowState | undefined): void {
    if (state?.id === this.current?.id) return;
    this.current = state && { ...state, compiled: this.compile(state.policy), overlays: new Map() };
    this.queue = [];
    this.diffs = [];
    this.counts = { compared: 0, same: 0, dropped: 0 };
  }

  /**
   * A stored shadow that no longer validates (saved under older rules of validation) is used
   * salvaged, as the live policy is (policy-store.ts): a server must start whatever is stored.
   */
  private compile(policy: Policy): CompiledPolicy {
    try {
      return compilePolicy(policy);
    } catch (error) {
      this.options.onError?.(error as Error);
      return compilePolicy(salvagePolicy(policy).policy);
    }
  }

  get shadowId(): string | undefined {
    return this.current?.id;
  }

  /** The observer for agents built on `base` (the stored policy, compiled). */
  observerFor(base: CompiledPolicy): DecisionObserver {
    const isActive = () => this.current !== undefined;
    return {
      observe: (observation) => this.observe(observation, base.policy),
      // Without a shadow the gate builds no observation: shadow mode off costs a property read.
      get active() {
        return isActive();
      },
    };
  }

  /** On the decision path: constant work, no I/O, never throws. */
  observe(observation: DecisionObservation, base: Policy): void {
    const current = this.current;
    if (!current) return;
    if (this.queue.length + this.diffs.length >= this.maxQueue) {
      this.counts.dropped++;
      this.stats.dropped++;
      return;
    }
    this.queue.push({ shadowId: current.id, observation, base, at: Date.now() });
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => this.drain());
    }
  }

  /** Evaluates what is queued and writes what is pending; resolves once all of it is written (or failed). */
  async flush(): Promise<void> {
    this.drain();
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    // Bounded: a writer that keeps failing ends the flush (what it lost is counted as dropped).
    const failures = this.stats.writeFailures;
    while (this.writing || (this.hasPending() && this.current && this.stats.writeFailures === failures)) {
      if (!this.writing) this.write();
      await this.writing;
    }
  }

  private hasPending(): boolean {
    return this.diffs.length > 0 || this.counts.compared > 0 || this.counts.dropped > 0;
  }

  private drain(): void {
    this.draining = false;
    const batch = this.queue;
    this.queue = [];
    const current = this.current;
    for (const pending of batch) {
      if (!current || pending.shadowId !== current.id) continue;
      this.compare(current, pending);
    }
    if (this.hasPending() && !this.writeTimer && !this.writing) this.scheduleWrite();
  }

  private compare(current: Current, { observation, base, at }: Pending): void {
    let shadow: Decision;
    try {
      shadow = observation.adjust(
        evaluate(this.policyFor(current, observation.policy, base), observation.call, observation.context),
      );
    } catch (error) {
      // evaluate never throws; compiling a run's rules over the shadow might. Not compared.
      this.counts.dropped++;
      this.stats.evaluationFailures++;
      this.options.onError?.(error as Error);
      return;
    }
    this.counts.compared++;
    const live = observation.decision;
    if (shadow.action === live.action) {
      this.counts.same++;
      return;
    }
    this.diffs.push({
      at: new Date(at),
      runId: observation.runId,
      agentId: observation.agentId,
      tool: observation.call.tool,
      params: storedParams(observation.call.params),
      liveAction: live.action,
      shadowAction: shadow.action,
      live: describeDecision(live),
      shadow: describeDecision(shadow),
    });
  }

  /** The shadow in place of the stored policy, with the rules the run added after it. */
  private policyFor(current: Current, judged: Policy, base: Policy): CompiledPolicy {
    if (judged === base) return current.compiled;
    const added = judged.rules.slice(base.rules.length);
    if (added.length === 0) return current.compiled;
    const key = JSON.stringify(added);
    let compiled = current.overlays.get(key);
    if (!compiled) {
      if (current.overlays.size >= 32) current.overlays.clear();
      compiled = compilePolicy({ ...current.policy, rules: [...current.policy.rules, ...added] });
      current.overlays.set(key, compiled);
    }
    return compiled;
  }

  private scheduleWrite(): void {
    this.writeTimer = setTimeout(() => this.write(), this.writeDelayMs);
    this.writeTimer.unref?.(); // never what keeps a process alive
  }

  private write(): void {
    clearTimeout(this.writeTimer);
    this.writeTimer = undefined;
    const current = this.current;
    if (this.writing || !current || !this.hasPending()) return;
    // The counters go with the first batch; differences beyond maxBatch follow in the next ones.
    const batch: ShadowBatch = { shadowId: current.id, diffs: this.diffs.splice(0, this.maxBatch), ...this.counts };
    this.counts = { compared: 0, same: 0, dropped: 0 };
    this.writing = (async () => {
      let failed = false;
      try {
        await this.options.writer.recordShadowBatch(batch);
      } catch (error) {
        failed = true;
        // Lost: counted as dropped with the next batch, so the totals stay honest.
        this.stats.writeFailures++;
        if (this.current?.id === batch.shadowId) this.counts.dropped += batch.compared + batch.dropped;
        this.options.onError?.(error as Error);
      } finally {
        this.writing = undefined;
      }
      // What came in meanwhile. (After a failure the next observation schedules the retry, so a
      // database that is down is not retried in a loop.)
      if (!failed && this.hasPending() && !this.writeTimer) this.scheduleWrite();
    })();
  }
}
