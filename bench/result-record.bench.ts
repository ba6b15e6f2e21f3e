// The record of an MCP client's allowed call's result on the embedded database: its journal line,
// written before the answer leaves, and the statement that stores it after the answer
// (lib/server/external/deferred-records.ts, call-result.ts). Run: npm run bench:result-record
// Side by side, alternating, for results of 1 KB, 100 KB and 1 MB: the record as the gate makes it
// (the output once, in the tool_result event; the finished claim keeps the rest) and as an older
// version made it (the output again in the claim's result).
// (a) `RecordJournal.write`: the JSON, its bytes, the write to the file (page cache).
// (b) the store: the tool_result event and the finished claim in one statement (PGlite, in this
//     process; the server's event loop waits for it).
// Medians of BENCH_RECORD_ROUNDS (default 20) each.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createQueries, openDatabase } from '../lib/db';
import { callResultEvent, claimResultOf } from '../lib/server/external/call-result';
import type { OutsideRecord } from '../lib/server/external/deferred-records';
import { RecordJournal } from '../lib/server/external/record-journal';
import { pct, table } from './gate/stats';

const ROUNDS = Number(process.env.BENCH_RECORD_ROUNDS ?? 20);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('BENCH_RECORD_ROUNDS must be a whole number, at least 1');
const SIZES = [1_000, 100_000, 1_000_000];

const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-record-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function recordOf(runId: string, toolCallId: string, output: string, older: boolean): OutsideRecord {
  const result = { tool: 'mcp__fs__read_text_file', agent: 'claude-code', output, isError: false };
  const event = callResultEvent(runId, toolCallId, result);
  return { runId, events: [event], audit: [], finish: { toolCallId, result: older ? result : claimResultOf(result) } };
}

const outputOf = (bytes: number) => 'a line of the file it read\n'.repeat(Math.ceil(bytes / 27)).slice(0, bytes);
const label = (bytes: number) => (bytes >= 1_000_000 ? `${bytes / 1_000_000} MB` : `${bytes / 1000} KB`);

function journalRows(): string[][] {
  return SIZES.map((bytes) => {
    const output = outputOf(bytes);
    const times = { once: [] as number[], twice: [] as number[] };
    // Emptied after every line (limit 1 byte): each line is written to an empty file.
    const journal = new RecordJournal<OutsideRecord>(path.join(dir, `${bytes}.journal`), 1);
    for (let i = 0; i < ROUNDS; i++)
      for (const older of [false, true]) {
        const record = recordOf('run-1', 'mcp-1', output, older);
        const t0 = performance.now();
        journal.write(record);
        (older ? times.twice : times.once).push(performance.now() - t0);
        journal.stored();
      }
    journal.close();
    const size = (older: boolean) => Buffer.byteLength(JSON.stringify(recordOf('run-1', 'mcp-1', output, older)));
    return [
      label(bytes),
      pct(times.once, 50).toFixed(3),
      pct(times.twice, 50).toFixed(3),
      `${size(false)} / ${size(true)}`,
    ];
  });
}

async function storeRows(): Promise<string[][]> {
  const { db, close } = await openDatabase({ dataDir: path.join(dir, 'db') });
  const q = createQueries(db);
  await q.runs.createRun({ id: 'bench', sessionId: 'bench', title: 'bench:result-record' });
  const rows: string[][] = [];
  let n = 0;
  for (const bytes of SIZES) {
    const output = outputOf(bytes);
    const times = { once: [] as number[], twice: [] as number[] };
    for (let i = 0; i < ROUNDS; i++)
      for (const older of [false, true]) {
        const toolCallId = `mcp-${++n}`;
        await q.toolExecutions.claimToolExecution({ runId: 'bench', toolCallId });
        const record = recordOf('bench', toolCallId, output, older);
        const events = record.events.map((event) => ({ type: event.type, data: event }));
        const t0 = performance.now();
        await q.events.appendEventsClaiming({ runId: 'bench', events, finishExecution: record.finish });
        (older ? times.twice : times.once).push(performance.now() - t0);
      }
    rows.push([label(bytes), pct(times.once, 50).toFixed(2), pct(times.twice, 50).toFixed(2)]);
  }
  await close();
  return rows;
}

console.log(`\n(a) the result's journal line, written before the answer (median of ${ROUNDS}, alternating):`);
table(['result', 'output once ms', 'output twice (older) ms', 'line bytes once / twice'], journalRows());
const stored = await storeRows();
console.log(`\n(b) the result stored after the answer, one statement (median of ${ROUNDS}, alternating):`);
table(['result', 'output once ms', 'output twice (older) ms'], stored);
