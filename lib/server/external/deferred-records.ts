// Outside decisions made at once (allowed, denied, or handed back to the caller's own prompt) are
// answered before their record is stored: the statement that stores the tool_call and its audit
// row is about half of an allowed hook call's time (bench:hooks). So is the result of a call
// Gatehouse ran for an MCP client (its tool_result event and its finished claim), and the decision
// of an MCP client's allowed call with its claim (won in memory: claim-ledger.ts). Each record is first written to
// the journal (record-journal.ts), synchronously, and stored once the current turn of the event
// loop, the one that writes the answer, is over (setImmediate). Every statement issued after it, a
// read of the same run by a client that got its answer included, queues behind it in PGlite, so
// what a client reads after its answer holds the record. Shutdown waits for the records being
// stored; the next start stores those a stopped process journaled and did not store (`recover`).
import type { RunEvent } from '../../contract';
import type { RecordAuditInput } from '../../db';
import type { AuditSource } from './outside-audit';
import type { RecordJournal } from './record-journal';

/** One decision's record: its events and audit rows (ids and time fixed when decided), or a claimed call's result. */
export interface OutsideRecord {
  runId: string;
  events: RunEvent[];
  audit: (Omit<RecordAuditInput, 'at' | 'id'> & { id: string; at: string })[];
  /** What the audit rows of its first events are made from when it is stored (outside-audit.ts). */
  auditFrom?: AuditSource;
  /** The claimed execution this record finishes (tool-executions.ts), with its result. */
  finish?: { toolCallId: string; result: unknown };
  /** The call this record claims (won in memory first: claim-ledger.ts), stored with its tool_call. */
  claim?: string;
}

/** A journaled record held back (`hold`): `release` lets it be stored; `stored` settles once it is. */
export interface HeldRecord {
  release(): void;
  /**
   * Journals `next` and releases the held record to be stored with it, as one record (a claimed
   * call's result with its claim: one statement instead of two). False, and nothing journaled, when
   * the held record was released already or `next` could not be journaled: store `next` yourself.
   */
  releaseWith(next: OutsideRecord): boolean;
  /** Settles once it is stored (true) or could not be (false: kept in the journal, reported). */
  stored: Promise<boolean>;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class DeferredRecords {
  private readonly storing = new Set<Promise<boolean>>();
  private readonly holds = new Set<() => void>();

  constructor(
    /** Absent: nothing outlives the process anyway (an in-memory database). */
    private readonly journal: RecordJournal<OutsideRecord> | undefined,
    private readonly store: (record: OutsideRecord) => Promise<void>,
    private readonly report: (error: Error) => void,
  ) {}

  /**
   * Journals the record and stores it after this turn of the event loop (or, given `after`, once
   * that has settled: a claimed call's result after its claim; if that one could not be stored,
   * this one is not either, and stays in the journal with it, so the next start stores both in
   * order, once). False when it could not be journaled: the caller stores it before answering.
   */
  defer(record: OutsideRecord, after?: Promise<boolean>): boolean {
    if (!this.journalNow(record)) return false;
    this.schedule(
      () => [record],
      after
        ? after.then(
            (stored) => {
              if (!stored) throw new Error('the record it follows could not be stored');
              return nextTurn();
            },
            () => {
              throw new Error('the record it follows could not be stored');
            },
          )
        : nextTurn(),
    );
    return true;
  }

  /**
   * Journals the record and holds it until `release` (then stores it after that turn) or `maxMs`:
   * an allowed call's claim is stored with its result, after the answer, rather than while the tool
   * runs. `stored` settles once it is stored (or reported). Undefined when it could not be journaled.
   */
  hold(record: OutsideRecord, maxMs: number): HeldRecord | undefined {
    if (!this.journalNow(record)) return undefined;
    let resolve!: () => void;
    const released = new Promise<void>((r) => (resolve = r));
    const timer = setTimeout(() => release(), maxMs);
    timer.unref?.();
    let held = true;
    let next: OutsideRecord | undefined;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      this.holds.delete(release);
      resolve();
    };
    this.holds.add(release);
    const stored = this.schedule(() => (next ? [record, next] : [record]), released.then(nextTurn));
    const releaseWith = (record: OutsideRecord) => {
      if (!held || !this.journalNow(record)) return false;
      next = record;
      release();
      return true;
    };
    return { release, releaseWith, stored };
  }

  private journalNow(record: OutsideRecord): boolean {
    try {
      this.journal?.write(record);
      return true;
    } catch (error) {
      this.report(new Error(`could not journal an outside decision: ${(error as Error).message}`));
      return false;
    }
  }

  /** Stores the records (journaled each: one line each) as one, once `when` resolves (if it rejects: not now, kept). */
  private schedule(records: () => OutsideRecord[], when: Promise<void>): Promise<boolean> {
    let lines = 0;
    const storing: Promise<boolean> = when
      .then(() => {
        const list = records();
        lines = list.length;
        return this.store(list.length === 1 ? list[0]! : merged(list[0]!, list[1]!));
      })
      .then(
        () => {
          for (let i = 0; i < lines; i++) this.journal?.stored();
          return true;
        },
        (error: Error) => {
          // Kept in the journal: the next start stores it.
          for (let i = 0; i < Math.max(lines, 1); i++) this.journal?.stored(true);
          this.report(new Error(`could not store an outside decision (kept in the journal): ${error.message}`));
          return false;
        },
      )
      .finally(() => this.storing.delete(storing));
    this.storing.add(storing);
    return storing;
  }

  /** True while a record is waiting to be stored. */
  busy(): boolean {
    return this.storing.size > 0;
  }

  /** Resolves once every record deferred so far (and any deferred meanwhile) is stored or reported. */
  async drain(): Promise<void> {
    for (const release of [...this.holds]) release();
    while (this.storing.size > 0) await Promise.all([...this.storing]);
    this.journal?.emptyIfAllStored();
  }

  /**
   * At start, before the first `defer`: stores what a stopped process journaled and did not store
   * (`isStored` tells those it did). Records that cannot be stored are set aside in a file named
   * in the report, never dropped. Returns how many were stored now.
   */
  async recover(isStored: (record: OutsideRecord) => Promise<boolean>): Promise<number> {
    const journal = this.journal;
    if (!journal) return 0;
    let count = 0;
    try {
      for (const record of journal.leftover()) {
        if (await isStored(record)) continue;
        await this.store(record);
        count++;
      }
      journal.discardLeftover();
    } catch (error) {
      const aside = journal.setLeftoverAside();
      this.report(
        new Error(`could not store the journaled outside decisions (kept in ${aside}): ${(error as Error).message}`),
      );
    }
    return count;
  }
}

/** A held claim's record and its call's result as one record: the claim is stored finished. */
function merged(held: OutsideRecord, next: OutsideRecord): OutsideRecord {
  return {
    runId: held.runId,
    events: [...held.events, ...next.events],
    audit: [...held.audit, ...next.audit],
    // The held record's events come first, so its source still names them.
    ...(held.auditFrom ? { auditFrom: held.auditFrom } : {}),
    ...(held.claim ? { claim: held.claim } : {}),
    ...(next.finish ? { finish: next.finish } : {}),
  };
}
