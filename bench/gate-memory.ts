// Where the server's memory goes, component by component, in one plain Node process (no Next, no
// HTTP): the runtime (PGlite, migrations, policy) on a fresh data dir, then N runs paused on a
// relay, each reading taken after a forced GC. Run:
//   node --expose-gc --import tsx bench/gate-memory.ts            (N = 1000; BENCH_MEMORY_RUNS=...)
// It prints RSS, the V8 heap in use, external memory (PGlite's WebAssembly heap is counted there)
// and the per-run growth. The data dir is created first by a throw-away child process, so that
// the measured process opens an existing database (as every start after the first does).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? 1000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc && process.argv[2] !== '--create')
  throw new Error('run with node --expose-gc --import tsx bench/gate-memory.ts');

interface Reading {
  label: string;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}
const readings: Reading[] = [];
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    gc!();
    await new Promise((r) => setTimeout(r, 50));
  }
}
async function read(label: string): Promise<Reading> {
  await settle();
  const m = process.memoryUsage();
  const r = {
    label,
    rss: m.rss / 2 ** 20,
    heapUsed: m.heapUsed / 2 ** 20,
    heapTotal: m.heapTotal / 2 ** 20,
    external: m.external / 2 ** 20,
  };
  readings.push(r);
  return r;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-memory-'));
process.env.GATEHOUSE_DATA_DIR = dir;
process.env.GATEHOUSE_MODEL = 'offline';
process.env.GATEHOUSE_APPROVAL_TIMEOUT_S = '3600';

async function main(): Promise<void> {
  if (process.argv[2] === '--create') {
    const { getRuntime } = await import('../lib/server/runtime');
    const rt = await getRuntime();
    await rt.database.close();
    return;
  }
  const created = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'gate-memory.ts'), '--create'],
    { env: process.env, stdio: 'inherit' },
  );
  if (created.status !== 0) throw new Error('could not create the database');
  await read('node + tsx, nothing loaded');
  const { getRuntime } = await import('../lib/server/runtime');
  await read('modules loaded (agent, policy, db, AI SDK)');
  // The same store the runtime opens next (the registry hands it over): PGlite alone.
  const { openDatabase } = await import('../lib/db');
  const db = await openDatabase({ dataDir: path.join(dir, 'db') });
  await read('PGlite open');
  const rt = await getRuntime();
  await db.close();
  await read('runtime up (PGlite open, policy loaded)');

  const waitRelay = async (runId: string) =>
    new Promise<void>((resolve) => {
      let stop: (() => void) | undefined;
      let done = false;
      void rt.runs
        .subscribe(runId, 0, (event) => {
          if (event.type === 'relay' && !done) {
            done = true;
            resolve();
            stop?.();
          }
        })
        .then((unsubscribe) => {
          stop = unsubscribe;
          if (done) unsubscribe();
        });
    });
  const start = async (i: number) => {
    const { runId } = await rt.runs.start({ messages: [{ role: 'user', content: `$ echo ${i}` }] });
    await waitRelay(runId);
  };
  await start(0);
  const one = await read('1 run paused');
  // Heap snapshots before and after the N runs, for a closer look (compare in Chrome DevTools).
  const snapshots = process.env.BENCH_MEMORY_SNAPSHOTS;
  if (snapshots) (await import('node:v8')).writeHeapSnapshot(path.join(snapshots, 'paused-1.heapsnapshot'));
  for (let i = 1; i < RUNS; i += 20)
    await Promise.all(Array.from({ length: Math.min(20, RUNS - i) }, (_, k) => start(i + k)));
  const all = await read(`${RUNS} runs paused`);
  if (snapshots) (await import('node:v8')).writeHeapSnapshot(path.join(snapshots, `paused-${RUNS}.heapsnapshot`));

  console.log(`Memory by component (one process, forced GC before each reading; MB):`);
  const cols = ['RSS', 'V8 heap used', 'V8 heap total', 'external', 'rest of RSS'];
  console.log(`  ${'reading'.padEnd(44)} ${cols.map((c) => c.padStart(13)).join(' ')}`);
  for (const r of readings) {
    const cells = [r.rss, r.heapUsed, r.heapTotal, r.external, r.rss - r.heapTotal];
    console.log(`  ${r.label.padEnd(44)} ${cells.map((c) => c.toFixed(1).padStart(13)).join(' ')}`);
  }
  const per = (a: number, b: number) => (((b - a) * 1024) / (RUNS - 1)).toFixed(1);
  console.log(`  per paused run: RSS ${per(one.rss, all.rss)} KB, V8 heap used ${per(one.heapUsed, all.heapUsed)} KB`);
  console.log(
    '  (external: mostly the WebAssembly memory PGlite has allocated, of which only touched pages are resident;',
  );
  console.log('   rest of RSS: code (Node, V8, compiled WebAssembly), malloc arenas, touched WebAssembly pages)');
  await rt.database.close();
}

main()
  .then(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  })
  .catch((error: unknown) => {
    console.error(error);
    rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  });
