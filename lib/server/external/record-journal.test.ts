// The journal of records answered before they were stored: what a stopped process leaves is read
// back in order (a torn last line skipped), emptied once everything written is stored and it has
// grown past its limit (or the records are drained), and kept whole when a record could not be stored.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RecordJournal } from './record-journal';

const dirs: string[] = [];
function journalFile(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-journal-'));
  dirs.push(dir);
  return path.join(dir, 'records.journal');
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('RecordJournal', () => {
  it('holds each record from its write until it is stored, and is empty once all are (past its limit)', () => {
    const file = journalFile();
    const journal = new RecordJournal<{ n: number }>(file, 16);
    journal.write({ n: 1 });
    journal.write({ n: 2 });
    expect(readFileSync(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n');
    journal.stored();
    expect(journal.pending).toBe(1);
    expect(readFileSync(file, 'utf8')).not.toBe('');
    journal.stored();
    expect(readFileSync(file, 'utf8')).toBe('');
    // Written after being emptied: at the start of the file again.
    journal.write({ n: 3 });
    expect(readFileSync(file, 'utf8')).toBe('{"n":3}\n');
    journal.close();
  });

  it('keeps stored lines while under its limit, and empties once past it or drained', () => {
    const file = journalFile();
    writeFileSync(file, '{"n":0}\n'); // 8 bytes a stopped process left, counted when opened
    const journal = new RecordJournal<{ n: number }>(file, 24);
    journal.write({ n: 1 });
    journal.stored();
    // 16 bytes: every record is stored, and the lines stay (the next start finds them stored).
    expect(readFileSync(file, 'utf8')).toBe('{"n":0}\n{"n":1}\n');
    journal.write({ n: 2 });
    journal.write({ n: 3 });
    journal.stored();
    // Past the limit, but one record is still to be stored.
    expect(readFileSync(file, 'utf8')).toBe('{"n":0}\n{"n":1}\n{"n":2}\n{"n":3}\n');
    journal.stored();
    expect(readFileSync(file, 'utf8')).toBe('');
    journal.write({ n: 4 });
    journal.emptyIfAllStored(); // one record not stored yet: kept
    expect(readFileSync(file, 'utf8')).toBe('{"n":4}\n');
    journal.stored();
    expect(readFileSync(file, 'utf8')).toBe('{"n":4}\n');
    journal.emptyIfAllStored(); // drained: emptied whatever its size
    expect(readFileSync(file, 'utf8')).toBe('');
    journal.close();
  });

  it('gives the next process what a stopped one wrote and did not store, in order, without a torn last line', () => {
    const file = journalFile();
    const stopped = new RecordJournal<{ n: number }>(file);
    stopped.write({ n: 1 });
    stopped.write({ n: 2 });
    stopped.close();
    appendFileSync(file, '{"n":3, "torn');
    const next = new RecordJournal<{ n: number }>(file);
    expect(next.leftover()).toEqual([{ n: 1 }, { n: 2 }]);
    next.discardLeftover();
    expect(readFileSync(file, 'utf8')).toBe('');
    expect(next.leftover()).toEqual([]);
    next.close();
  });

  it('has nothing left over when no file exists yet', () => {
    const file = journalFile();
    expect(new RecordJournal(file).leftover()).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });

  it('keeps every line once a record could not be stored, for the next start', () => {
    const file = journalFile();
    const journal = new RecordJournal<{ n: number }>(file, 0);
    journal.write({ n: 1 });
    journal.write({ n: 2 });
    journal.stored(true);
    journal.stored();
    journal.emptyIfAllStored();
    expect(journal.pending).toBe(0);
    expect(new RecordJournal<{ n: number }>(file).leftover()).toEqual([{ n: 1 }, { n: 2 }]);
    journal.close();
  });

  it('sets leftover records it could not store aside, and starts empty', () => {
    const file = journalFile();
    writeFileSync(file, '{"n":1}\n');
    const journal = new RecordJournal<{ n: number }>(file);
    const aside = journal.setLeftoverAside();
    expect(readFileSync(aside, 'utf8')).toBe('{"n":1}\n');
    expect(journal.leftover()).toEqual([]);
    journal.write({ n: 2 });
    expect(readFileSync(file, 'utf8')).toBe('{"n":2}\n');
    journal.close();
  });
});
