// Outside decisions made at once (allowed, denied, or handed back to the caller's own prompt) are
// answered before their record is stored: the statement that stores the tool_call and its audit
// row is about half of an allowed hook call's time (bench:hooks). So is the result of a call
// Gatehouse ran for an MCP client (its tool_result event and its finished claim). Each record is first written to
// the journal (record-journal.ts), synchronously, and stored once the current turn of the event
// loop, the one that writes the answer, is over (setImmediate). Every statement issued after it, a
// read of the same run by a client that got its answer included, queues behind it in PGlite, so
// what a client reads after its answer holds the record. Shutdown waits for the records being
// stored; the next start stores those a stopped process journaled and did not store (`recover`).
import type { RunEvent } from '../../contract';
import type { RecordAuditInput } from '../../db';
import type { RecordJournal } from './record-journal';

/** One decision's record: its events and audit rows (ids and time fixed when decided), or a claimed call's result. */
export interface OutsideRecord {
  runId: string;
  events: RunEvent[];
  audit: (Omit<RecordAuditInput, 'at' | 'id'> & { id: string; at: string })[];
  /** The claimed execution this record finishes (tool-executions.ts), with its result. */
  finish?: { toolCallId: string; result: unknown };
}

export class DeferredRecords {
  private readonly storing = new Set<Promise<void>>();

  constructor(
    /** Absent: nothing outlives the process anyway (an in-memory database). */
    private readonly journal: RecordJournal<OutsideRecord> | undefined,
    private readonly store: (record: OutsideRecord) => Promise<void>,
    private readonly report: (error: Error) => void,
  ) {}

  /**
   * Journals the record and stores it after this turn of the event loop. False when it could not
   * be journaled: the caller stores it before answering.
   */
  defer(record: OutsideRecord): boolean {
    try {
      this.journal?.write(record);
    } catch (error) {
      this.report(new Error(`could not journal an outside decision: ${(error as Error).message}`));
      return false;
    }
    const storing: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.store(record))
      .then(
        () => this.journal?.stored(),
        (error: Error) => {
          // Kept in the journal: the next start stores it.
          this.journal?.stored(true);
          this.report(new Error(`could not store an outside decision (kept in the journal): ${error.message}`));
        },
      )
      .finally(() => this.storing.delete(storing));
    this.storing.add(storing);
    return true;
  }

  /** Resolves once every record deferred so far (and any deferred meanwhile) is stored or reported. */
  async drain(): Promise<void> {
    while (this.storing.size > 0) await Promise.all([...this.storing]);
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
