// The journal line of an MCP client's allowed call's result, written before the answer leaves
// (lib/server/external/deferred-records.ts). Run: npx tsx bench/journal.bench.ts
// Side by side, alternating, for results of 1 KB, 100 KB and 1 MB: the line as the gate journals it
// (the output once, in the tool_result event: call-result.ts) and the line an older version wrote
// (the output again in the finished claim's result). Times `RecordJournal.write`: JSON, the bytes,
// the write to the file (page cache); median of BENCH_JOURNAL_ROUNDS (default 40) each.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callResultEvent } from '../lib/server/external/call-result';
import type { OutsideRecord } from '../lib/server/external/deferred-records';
import { RecordJournal } from '../lib/server/external/record-journal';
import { pct, table } from './gate/stats';

const ROUNDS = Number(process.env.BENCH_JOURNAL_ROUNDS ?? 40);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('BENCH_JOURNAL_ROUNDS must be a whole number, at least 1');

const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-journal-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

function lineOf(output: string, older: boolean): OutsideRecord {
  const result = { tool: 'mcp__fs__read_text_file', agent: 'claude-code', output, isError: false };
  const event = callResultEvent('run-1', 'mcp-1', result);
  return {
    runId: 'run-1',
    events: [event],
    audit: [],
    finish: older ? { toolCallId: 'mcp-1', result } : { toolCallId: 'mcp-1' },
  };
}

function timeWrite(journal: RecordJournal<OutsideRecord>, record: OutsideRecord): number {
  const t0 = performance.now();
  journal.write(record);
  const elapsed = performance.now() - t0;
  journal.stored(); // emptied at once (limit 1 byte): every line is written to an empty file
  return elapsed;
}

const rows: string[][] = [];
for (const bytes of [1_000, 100_000, 1_000_000]) {
  const output = 'a line of the file it read\n'.repeat(Math.ceil(bytes / 27)).slice(0, bytes);
  const once: number[] = [];
  const twice: number[] = [];
  const journal = new RecordJournal<OutsideRecord>(path.join(dir, `${bytes}.journal`), 1);
  for (let i = 0; i < ROUNDS; i++) {
    once.push(timeWrite(journal, lineOf(output, false)));
    twice.push(timeWrite(journal, lineOf(output, true)));
  }
  journal.close();
  rows.push([
    `${bytes / 1000} KB`,
    pct(once, 50).toFixed(3),
    pct(twice, 50).toFixed(3),
    `${Buffer.byteLength(JSON.stringify(lineOf(output, false)))} / ${Buffer.byteLength(JSON.stringify(lineOf(output, true)))}`,
  ]);
}
console.log(`\nThe result's journal line, written before the answer (median of ${ROUNDS}, alternating):`);
table(['result', 'output once ms', 'output twice (older) ms', 'line bytes once / twice'], rows);
