// The journal of outside decisions answered before their record was stored (deferred-records.ts):
// one JSON line per record, written synchronously before the answer leaves. It is emptied once
// every record written is stored and it has grown past EMPTY_AT_BYTES, and when the records are
// drained (shutdown, a flush): a write to a file just emptied costs about 35 µs more on ext4 than
// one appended (a block allocated again), on the path of every allowed call, and the emptying
// itself is a system call per record. A process that stops leaves its lines, stored or not; the
// next start reads them (`leftover`) before writing any and stores those it does not find stored
// (DeferredRecords.recover), as it always had to for a process that stopped between a store and
// the emptying. The write reaches the operating system's page cache as PGlite's own writes do
// (fsync is off in embedded PGlite): a crashed process loses nothing, a crashed machine may lose
// the last moments of both alike.
import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';

/** The journal's file name in the data directory (GATEHOUSE_DATA_DIR). */
export const OUTSIDE_RECORDS_JOURNAL = 'outside-records.journal';

/**
 * A journal with nothing left to store is emptied from this size on: about a hundred records of
 * an allowed call, which a start after a crash looks up once each (`leftover`, then `isStored`).
 */
export const EMPTY_AT_BYTES = 64 * 1024;

export class RecordJournal<T> {
  private fd: number | undefined;
  private unstored = 0;
  /** Bytes in the file (its size when opened, plus the lines written since). */
  private size = 0;
  /** A record could not be stored: the file keeps every line until the next start stores them. */
  private keep = false;

  /** Opens (creating) the journal at `file`; `leftover()` reads what a stopped process left in it. */
  constructor(
    private readonly file: string,
    private readonly emptyAtBytes = EMPTY_AT_BYTES,
  ) {}

  /**
   * The records a process that stopped wrote and did not store, in the order written; a torn last
   * line (the process stopped while writing it, so its answer never left) is skipped. Read once, before the
   * first `write`; the lines stay in the file until `discardLeftover`.
   */
  leftover(): T[] {
    if (!existsSync(this.file)) return [];
    const records: T[] = [];
    for (const line of readFileSync(this.file, 'utf8').split('\n')) {
      if (!line) continue;
      try {
        records.push(JSON.parse(line) as T);
      } catch {
        // Torn: written in part when the process stopped (nothing was answered on it).
      }
    }
    return records;
  }

  /** The leftover records are stored: the file starts empty. */
  discardLeftover(): void {
    this.open();
    this.empty();
  }

  /** The leftover records could not all be stored: they are kept aside (`<file>.unstored-<time>`), the journal starts empty. */
  setLeftoverAside(): string {
    const aside = `${this.file}.unstored-${Date.now()}`;
    this.close();
    renameSync(this.file, aside);
    return aside;
  }

  /** Writes one record before its answer leaves; throws when it cannot (the caller stores it first instead). */
  write(record: T): void {
    this.open();
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    let written = 0;
    while (written < line.length) written += writeSync(this.fd!, line, written);
    this.size += line.length;
    this.unstored++;
  }

  /**
   * One written record is stored: once none is left and the file has grown past its limit, it is
   * emptied. `failed`: it could not be stored; the file then keeps every line for the next start
   * (which skips those already stored).
   */
  stored(failed = false): void {
    this.unstored = Math.max(0, this.unstored - 1);
    if (failed) this.keep = true;
    if (this.size >= this.emptyAtBytes) this.emptyIfAllStored();
  }

  /** Empties the file when every record written is stored (the records were drained: shutdown, a flush). */
  emptyIfAllStored(): void {
    if (this.unstored === 0 && !this.keep && this.fd !== undefined && this.size > 0) this.empty();
  }

  /** Records written and not yet stored. */
  get pending(): number {
    return this.unstored;
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private open(): void {
    if (this.fd !== undefined) return;
    // O_APPEND: every write lands at the end, also after the file was emptied.
    this.fd = openSync(this.file, 'a', 0o600);
    this.size = fstatSync(this.fd).size;
  }

  private empty(): void {
    ftruncateSync(this.fd!, 0);
    this.size = 0;
  }
}
