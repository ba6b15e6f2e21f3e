// Background load: runs held paused on a relay. Each is `$ echo <prefix><n>` (bash asks in the
// default policy), started FILL_CONCURRENCY at a time; its stream is closed once its relay arrived
// (closing a stream does not stop a run). With two instances the runs alternate between them.
import { FILL_BUDGET_MS, FILL_CONCURRENCY } from './config';
import { startRun, type SseStream } from './sse';

export interface Paused {
  runId: string;
  sessionId: string;
  relayId: string;
  /** The instance the run was started on (with one server: its base URL). */
  startedOn: string;
  /** What its tool call prints when approved. */
  output: string;
}

export interface FillReport {
  added: number;
  failed: number;
  ms: number;
  errors: string[];
  stoppedEarly?: string;
}

export interface Target {
  name: string;
  base: string;
}

export class Background {
  readonly paused: Paused[] = [];
  private started = 0;

  /** `pick(n)` is where the n-th run (from 1) starts; `prefix` makes the echoed words distinct between sets. */
  constructor(
    private readonly pick: (n: number) => Target,
    private readonly prefix = '',
  ) {}

  /** Starts background runs, FILL_CONCURRENCY at a time, until `target` are paused (bounded). */
  async fill(target: number): Promise<FillReport> {
    const t0 = performance.now();
    const deadline = t0 + FILL_BUDGET_MS;
    let toStart = Math.max(0, target - this.paused.length);
    let added = 0;
    let failed = 0;
    let consecutiveFailures = 0;
    let stoppedEarly: string | undefined;
    const errors: string[] = [];
    const worker = async () => {
      while (toStart > 0 && !stoppedEarly) {
        if (performance.now() > deadline) {
          stoppedEarly = `fill budget of ${FILL_BUDGET_MS / 1000} s used up`;
          break;
        }
        toStart--;
        const n = ++this.started;
        const on = this.pick(n);
        const word = `${this.prefix}${n}`;
        let stream: SseStream | undefined;
        try {
          stream = await startRun(on.base, `$ echo ${word}`);
          const connected = await stream.until('connected');
          const relay = (await stream.until('relay')).data as { id: string };
          this.paused.push({
            runId: String(connected.data.runId),
            sessionId: String(connected.data.sessionId),
            relayId: relay.id,
            startedOn: on.name,
            output: `${word}\n`,
          });
          added++;
          consecutiveFailures = 0;
        } catch (error) {
          failed++;
          if (errors.length < 5) errors.push((error as Error).message);
          if (++consecutiveFailures >= 3 * FILL_CONCURRENCY) stoppedEarly = `${consecutiveFailures} failures in a row`;
        } finally {
          stream?.close();
        }
      }
    };
    await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
    return { added, failed, ms: performance.now() - t0, errors, ...(stoppedEarly ? { stoppedEarly } : {}) };
  }

  /** How many of the paused runs were started on each instance. */
  countBy(): Map<string, number> {
    const out = new Map<string, number>();
    for (const p of this.paused) out.set(p.startedOn, (out.get(p.startedOn) ?? 0) + 1);
    return out;
  }
}
