// `npm run bench:gate` (one instance): one production server (scripts/serve.sh) on embedded PGlite (or a scratch
// PostgreSQL database with BENCH_GATE_DATABASE_URL), N runs paused in the background, probes on
// top; what each figure means is in bench/gate.bench.ts's header and bench/README.md.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Background, type FillReport } from './background';
import { IDLE_WINDOW_MS, numberList, QUICK, T00, WARMUP_PROBES } from './config';
import { ScratchDatabase } from './database';
import { cpuSeconds, memory, noisyNote, procTree, processName, stealWindow, type Memory } from './proc';
import { probes, spawnBaseline, spawnedVia, type ProbeSet } from './probe';
import { armHardLimit, boot, ensureBuild, freePort, onSignals, removeAtExit, sleep, stopServer } from './servers';
import { mb, ms, pair, pct, table } from './stats';
import { serverStamps, stageMean, STAGES } from './stamps';

const LEVELS = numberList(process.env.BENCH_GATE_LEVELS, QUICK ? '1,100' : '1,100,1000');
const PROBES = numberList(process.env.BENCH_GATE_PROBES, QUICK ? '10,10' : '40,40,20');
/** PostgreSQL instead of the embedded PGlite (an extra line of figures; the targets are judged on PGlite). */
const ADMIN_DATABASE_URL = process.env.BENCH_GATE_DATABASE_URL;

interface LevelResult {
  n: number;
  pausedNow: number;
  fill: FillReport;
  idleCpuPct: number;
  memPaused: Memory;
  memAfter: Memory;
  set: ProbeSet;
  /** CPU steal during the probes, % of the machine's CPU time (proc.ts stealWindow). */
  stealPct: number;
}

/** A scratch database created for this run on ADMIN_DATABASE_URL's server, dropped at the end. */
let scratch: ScratchDatabase | undefined;

export async function dropDatabase(): Promise<void> {
  await scratch
    ?.drop()
    .catch((error: unknown) =>
      console.error(`(could not drop the scratch database ${scratch?.url}: ${(error as Error).message})`),
    );
}

export function checkArguments(): void {
  if (LEVELS.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(`BENCH_GATE_LEVELS must be non-negative integers, got ${process.env.BENCH_GATE_LEVELS}`);
}

export async function oneInstance(): Promise<number> {
  onSignals('stopping the server and removing the data directory.');
  console.log('Gatehouse gate benchmark: tool call -> relay on the SSE stream, decision -> tool start');
  console.log(
    `  one production server process (scripts/serve.sh, as npm start), ${ADMIN_DATABASE_URL ? "PostgreSQL (a scratch database on BENCH_GATE_DATABASE_URL's server)" : 'embedded PGlite in a fresh temp dir'}, offline model, 127.0.0.1`,
  );
  console.log(
    `  node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? '?'}), levels ${LEVELS.join(' / ')} paused runs, probes ${PROBES.join(' / ')}`,
  );
  console.log('  Method (details in the file header and bench/README.md):');
  console.log(
    '    call->relay     = receipt of `relay` (client) - relay.createdAt (server Date.now() right after the gate decided;',
  );
  console.log(
    '                      whole ms, so 0-1 ms high): relay INSERT, audit INSERT, run UPDATE, event-log appends, SSE, TCP',
  );
  console.log(
    '    decision->start = POST /api/chat/relay/:id written to a kept-alive connection -> `date +%s%N` running in the approved',
  );
  console.log(
    '                      bash call (same machine clock): HTTP, token check, the settle UPDATE that also claims the call, wake,',
  );
  console.log('                      the command written to a spare bash, which execs date');
  console.log(
    '    POST->relay     = POST /api/chat sent -> `relay` received (run creation, model step, checkpoint, gate: all of it)',
  );
  console.log(
    '    Background runs (`$ echo <i>`) are started 20 at a time, left paused, their streams closed; probes run one at a time',
  );
  console.log(
    '    on top (N + 1 paused while a probe waits). Client clock: performance.now() anchored on a Date.now() ms edge.',
  );
  console.log(
    '    The server boots twice on the same fresh data dir: the first boot creates the database (initdb, migrations, seed),',
  );
  console.log('    the measured server is the second boot, as in production after the first start.');
  console.log('');

  ensureBuild();
  armHardLimit();
  const port = await freePort();
  const BASE = `http://127.0.0.1:${port}`;
  const dataDir = removeAtExit(mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-gate-')));
  if (ADMIN_DATABASE_URL) scratch = await ScratchDatabase.create(ADMIN_DATABASE_URL);
  const env: Record<string, string> = scratch?.url ? { DATABASE_URL: scratch.url } : {};

  const first = await boot(BASE, port, dataDir, env);
  const memFirst = memory(first.child.pid!);
  await stopServer(first.child);
  const second = await boot(BASE, port, dataDir, env);
  const child = second.child;
  const pid = child.pid!;
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`\n!!! The server exited during the benchmark (${code ?? signal}).`);
  });
  const tree = procTree(pid);
  const memBoot = memory(pid);
  console.log(
    `First boot (creates the database): ready in ${(first.ms / 1000).toFixed(1)} s, RSS ${mb(memFirst.serverMb)} MB`,
  );
  console.log(
    `Measured server: pid ${pid} (${processName(pid)}), ready in ${(second.ms / 1000).toFixed(1)} s, RSS ${mb(memBoot.serverMb)} MB; ${
      tree.length === 1
        ? 'no child processes (the server runs in this process)'
        : `child processes: ${tree
            .slice(1)
            .map((p) => `${p} (${processName(p)})`)
            .join(', ')}`
    }`,
  );

  const baseline = await spawnBaseline(20);
  console.log(
    `Spawn baseline in this (small) client process, spawn('/bin/bash', ['-c', 'date +%s%N']) -> date running: p50 ${ms(pct(baseline, 50))} ms, p99 ${ms(pct(baseline, 99))} ms`,
  );

  const warm = await probes(WARMUP_PROBES, BASE);
  console.log(
    `Warm-up: ${warm.probes.length} probe runs${warm.failed ? `, ${warm.failed} failed (${warm.errors[0]})` : ''} (not counted)`,
  );
  if (warm.probes.length === 0) throw new Error(`no probe run succeeded during warm-up: ${warm.errors.join('; ')}`);
  console.log('');

  const background = new Background(() => ({ name: BASE, base: BASE }));
  const paused = background.paused;
  const results: LevelResult[] = [];
  for (const [i, n] of LEVELS.entries()) {
    const count = PROBES[i] ?? PROBES.at(-1) ?? 20;
    const before = paused.length;
    process.stdout.write(`N = ${n.toLocaleString('en-US')}: starting ${Math.max(0, n - before)} background runs ... `);
    const filled = await background.fill(n);
    const rate = filled.added / (filled.ms / 1000);
    console.log(
      `${paused.length} paused (${(filled.ms / 1000).toFixed(1)} s, ${filled.added > 0 ? rate.toFixed(0) : '-'} runs/s${filled.failed ? `, ${filled.failed} failed` : ''})`,
    );
    if (filled.stoppedEarly) console.log(`  !!! stopped early: ${filled.stoppedEarly}`);
    for (const e of filled.errors) console.log(`  ! ${e}`);
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('the server is gone');

    const memPaused = memory(pid);
    const cpu0 = cpuSeconds(pid);
    await sleep(IDLE_WINDOW_MS);
    const idleCpuPct = ((cpuSeconds(pid) - cpu0) / (IDLE_WINDOW_MS / 1000)) * 100;
    process.stdout.write(
      `  RSS ${mb(memPaused.serverMb)} MB with ${paused.length} paused; idle server CPU ${idleCpuPct.toFixed(0)}%; ${count} probes ... `,
    );
    const tProbes = performance.now();
    const steal = stealWindow();
    const set = await probes(count, BASE);
    const stealPct = steal();
    console.log(
      `${set.probes.length} done in ${((performance.now() - tProbes) / 1000).toFixed(1)} s${set.failed ? `, ${set.failed} failed` : ''}; CPU steal ${stealPct.toFixed(1)}%`,
    );
    if (set.stoppedEarly) console.log(`  !!! stopped early: ${set.stoppedEarly}`);
    for (const e of set.errors) console.log(`  ! ${e}`);
    const memAfter = memory(pid);
    results.push({ n, pausedNow: paused.length, fill: filled, idleCpuPct, memPaused, memAfter, set, stealPct });
  }
  stopping = true;
  await stopServer(child);

  // Results -------------------------------------------------------------------------------------
  const label = (r: LevelResult) =>
    r.pausedNow === r.n
      ? r.n.toLocaleString('en-US')
      : `${r.pausedNow.toLocaleString('en-US')} (of ${r.n.toLocaleString('en-US')})`;
  console.log('');
  console.log('Latency in ms, p50 / p99 over the probes (p99 of 20-50 probes is the slowest probe or next to it):');
  table(
    [
      'N paused',
      'probes',
      'call->relay',
      'decision->start',
      'POST->relay',
      'decision POST answered',
      'bash start->tool_result',
    ],
    results.map((r) => {
      const p = r.set.probes;
      return [
        label(r),
        `${p.length}${r.set.failed ? ` (+${r.set.failed} failed)` : ''}`,
        pair(p.map((x) => x.callToRelay)),
        pair(p.map((x) => x.decisionToStart)),
        pair(p.map((x) => x.postToRelay)),
        pair(p.map((x) => x.decisionResponse)),
        pair(p.map((x) => x.startToResult)),
      ];
    }),
  );
  const all = results.flatMap((r) => r.set.probes);
  console.log(
    `  probe commands started by: ${[...spawnedVia].map(([k, v]) => `${k} ${v}`).join(', ')} (warm-up included; a command spawns directly while the helper starts, and starts a fresh bash when no spare is ready).`,
  );
  console.log(
    `  load average of the machine (1 / 5 / 15 min) at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} on ${os.cpus().length} CPUs.`,
  );
  const same = all.filter((p) => p.sameRead).length;
  console.log(
    `  tool_call and relay arrived in the same read of the stream in ${same} of ${all.length} probes${same === all.length ? " (so receipt(relay) - receipt(tool_call) says nothing: both are flushed when the stream's first replay of the event log ends)" : ''}.`,
  );

  console.log('');
  console.log('Server process:');
  table(
    ['N paused', 'start N (s)', 'runs/s', 'RSS MB, N paused', 'RSS MB after probes', 'PSS MB, all', 'idle CPU %'],
    results.map((r) => [
      label(r),
      (r.fill.ms / 1000).toFixed(1),
      r.fill.added > 0 ? (r.fill.added / (r.fill.ms / 1000)).toFixed(0) : '-',
      mb(r.memPaused.serverMb) +
        (r.memPaused.processes > 1 ? ` (+children ${mb(r.memPaused.treeMb - r.memPaused.serverMb)})` : ''),
      mb(r.memAfter.serverMb),
      mb(Math.max(r.memPaused.treePssMb, r.memAfter.treePssMb)),
      r.idleCpuPct.toFixed(0),
    ]),
  );
  console.log(
    `  (RSS after boot: ${mb(memBoot.serverMb)} MB, first boot ${mb(memFirst.serverMb)} MB; idle CPU = server CPU time over ${IDLE_WINDOW_MS / 1000} s with only the N runs paused;`,
  );
  console.log(
    "   PSS, all = the server and its children with shared pages counted once (the RSS sum counts the node binary's pages in both the server and the helper): information)",
  );

  // Breakdown from the database -------------------------------------------------------------------
  try {
    const stamps = await serverStamps(
      { dataDir, ...(scratch?.url ? { databaseUrl: scratch.url } : {}) },
      all.map((p) => p.runId),
    );
    console.log('');
    console.log(
      'Where the time goes: mean ms per stage, server stamps read from the database after the run (whole ms, so each',
    );
    console.log('stage is +-1 ms; rows add up to POST->relay and to decision->start):');
    table(
      ['stage', ...results.map((r) => `N=${r.n.toLocaleString('en-US')}`)],
      STAGES.map((stage) => [
        stage.label,
        ...results.map((r) => {
          const m = stageMean(stage, r.set.probes, stamps);
          return m === undefined ? '-' : ms(m);
        }),
      ]),
    );
  } catch (error) {
    console.log(`\n(no breakdown: could not read the database afterwards: ${(error as Error).message})`);
  }

  // Summary -------------------------------------------------------------------------------------
  const verdict = (ok: boolean | undefined): string => (ok === undefined ? 'n/a ' : ok ? 'PASS' : 'MISS');
  const r100 = results.find((r) => r.n === 100 && r.set.probes.length > 0);
  const r1000 = results.find((r) => r.n === 1000);
  const c100 = r100
    ? pct(
        r100.set.probes.map((x) => x.callToRelay),
        50,
      )
    : NaN;
  const d100 = r100
    ? pct(
        r100.set.probes.map((x) => x.decisionToStart),
        50,
      )
    : NaN;
  const rss1000 = r1000 ? Math.max(r1000.memPaused.treeMb, r1000.memAfter.treeMb) : NaN;
  const full1000 = r1000 ? r1000.pausedNow >= 1000 : false;
  console.log('');
  console.log('Summary');
  const noisy = r100 ? noisyNote(r100.stealPct) : '';
  console.log(
    `  ${verdict(r100 ? c100 <= 5 : undefined)}  call->relay p50 at 100 paused runs: ${ms(c100)} ms (target <= 5 ms)${noisy}`,
  );
  console.log(
    `  ${verdict(r100 ? d100 <= 5 : undefined)}  decision->start p50 at 100 paused runs: ${ms(d100)} ms (target <= 5 ms)${noisy}`,
  );
  const server1000 = r1000 ? Math.max(r1000.memPaused.serverMb, r1000.memAfter.serverMb) : NaN;
  console.log(
    `  ${verdict(r1000 ? full1000 && rss1000 < 300 : undefined)}  RSS with 1,000 paused runs: ${r1000 ? `${mb(rss1000)} MB${full1000 ? '' : ` (only ${r1000.pausedNow} paused)`}` : 'not measured'} (target < 300 MB; server process and its children, i.e. the spawn helper; highest of the two readings; the server process alone: ${mb(server1000)} MB)`,
  );
  console.log(`\n(total run time ${((performance.now() - T00) / 1000).toFixed(1)} s)`);
  return results.every((r) => r.set.probes.length > 0 && !r.fill.stoppedEarly) ? 0 : 1;
}
