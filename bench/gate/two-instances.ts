// `npm run bench:gate -- --instances 2`: two production servers (A, B) on one scratch PostgreSQL
// database and one workspace, as docs/DEPLOY.md describes. The one-instance figures measured
// across instances (a run executing on one, followed and decided through the other, next to the
// same-instance peer), then decisions per second across both. Report: two-report.ts.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Background } from './background';
import { IDLE_WINDOW_MS, numberList, positiveInt, QUICK, WARMUP_PROBES } from './config';
import { crossProbe, Hold, probePlan, type Instance } from './cross-probe';
import { ScratchDatabase } from './database';
import { probeSeries, spawnBaseline } from './probe';
import { cpuSeconds, memory, procTree, processName, stealWindow } from './proc';
import { armHardLimit, boot, ensureBuild, freePort, onSignals, removeAtExit, sleep, stopServer } from './servers';
import { mb, ms, pct } from './stats';
import { serverStamps } from './stamps';
import { throughput } from './throughput';
import { report, type TwoLevel } from './two-report';

const LEVELS = numberList(process.env.BENCH_GATE_LEVELS, '1,100');
const PROBES = numberList(process.env.BENCH_GATE_PROBES, QUICK ? '10,10' : '40,40');
const THROUGHPUT_RUNS = positiveInt('BENCH_GATE_THROUGHPUT_RUNS', QUICK ? 60 : 200);
const THROUGHPUT_CONCURRENCY = positiveInt('BENCH_GATE_THROUGHPUT_CONCURRENCY', 16);
const ADMIN_DATABASE_URL = process.env.BENCH_GATE_DATABASE_URL;

let scratch: ScratchDatabase | undefined;

/** Drops the scratch database (bounded: a signal or the hard limit must still exit). */
export async function dropTwoInstanceDatabase(): Promise<void> {
  const dropping = scratch
    ?.drop()
    .catch((error: unknown) =>
      console.error(`(could not drop the scratch database ${scratch?.url}: ${(error as Error).message})`),
    );
  await Promise.race([dropping, sleep(10_000)]);
}

export function checkTwoInstanceArguments(): void {
  if (LEVELS.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(`BENCH_GATE_LEVELS must be non-negative integers, got ${process.env.BENCH_GATE_LEVELS}`);
  if (PROBES.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`BENCH_GATE_PROBES must be positive integers, got ${process.env.BENCH_GATE_PROBES}`);
}

async function twoPorts(): Promise<[number, number]> {
  const a = await freePort(0);
  let b = await freePort(1);
  for (let i = 0; b === a && i < 5; i++) b = await freePort(1);
  return [a, b];
}

export async function twoInstances(): Promise<number> {
  onSignals(
    'stopping the servers, removing the temp directories, dropping the scratch database.',
    dropTwoInstanceDatabase,
  );
  console.log(
    'Gatehouse gate benchmark, two instances: the gate across instances, and decisions per second across both',
  );
  console.log(
    `  two production server processes (A, B; scripts/serve.sh) on one scratch PostgreSQL database ${ADMIN_DATABASE_URL ? "(on BENCH_GATE_DATABASE_URL's server)" : '(on the local cluster)'} and one workspace, offline model, 127.0.0.1`,
  );
  console.log(
    `  node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? '?'}), levels ${LEVELS.join(' / ')} paused runs (split over A and B), probes ${PROBES.join(' / ')} across + as many on one instance; throughput ${THROUGHPUT_RUNS} runs, ${THROUGHPUT_CONCURRENCY} decisions in flight`,
  );
  console.log('  Method (details in bench/gate/cross-probe.ts, bench/gate/throughput.ts and bench/README.md):');
  console.log(
    '    A probe run (`$ date +%s%N`) starts on one instance (POST /api/chat; its own stream is closed at `connected`); its events are',
  );
  console.log(
    '    read through GET /api/runs/:id/events and its relay approved on the OTHER instance ("A -> B": executed by A, B serves both),',
  );
  console.log(
    '    alternating A -> B, B -> A, A -> A, B -> B (the last two: the same-instance peer, measured the same way).',
  );
  console.log(
    '    The run is held before its gate (the bench locks table `grants` until the stream is open), so the relay reaches the',
  );
  console.log(
    "    follower live: call->relay includes NOTIFY gatehouse_events and the follower's log read; decision->start includes",
  );
  console.log(
    "    NOTIFY gatehouse_relay, the executor's relay re-read and wake-up. POST->relay is not measured (it would include the hold).",
  );
  console.log('    "executed by" is the lease owner read from run_leases while the run waits.');
  console.log('');

  ensureBuild();
  armHardLimit(dropTwoInstanceDatabase);
  const [portA, portB] = await twoPorts();
  const tmp = (prefix: string) => removeAtExit(mkdtempSync(path.join(os.tmpdir(), prefix)));
  const workspace = tmp('gatehouse-bench-gate-ws-');
  const dirs = { A: tmp('gatehouse-bench-gate-a-'), B: tmp('gatehouse-bench-gate-b-') };
  scratch = ADMIN_DATABASE_URL ? await ScratchDatabase.create(ADMIN_DATABASE_URL) : ScratchDatabase.onLocalCluster();
  const databaseUrl = scratch.url!;
  console.log(`Scratch database ${scratch.name} on ${new URL(databaseUrl).host} (dropped at the end)`);
  const envOf = (name: 'A' | 'B') => ({
    DATABASE_URL: databaseUrl,
    GATEHOUSE_WORKSPACE: workspace,
    GATEHOUSE_INSTANCE_ID: `bench-${name.toLowerCase()}`,
  });
  const baseOf = (port: number) => `http://127.0.0.1:${port}`;

  // A alone creates the schema (migrations, seed, the admin); then both start together on it.
  const first = await boot(baseOf(portA), portA, dirs.A, envOf('A'), '[A] ');
  const memFirst = memory(first.child.pid!);
  await stopServer(first.child);
  const [bootA, bootB] = await Promise.all([
    boot(baseOf(portA), portA, dirs.A, envOf('A'), '[A] '),
    boot(baseOf(portB), portB, dirs.B, envOf('B'), '[B] '),
  ]);
  const make = (name: 'A' | 'B', port: number, child: typeof bootA.child): Instance => ({
    name,
    id: envOf(name).GATEHOUSE_INSTANCE_ID,
    base: baseOf(port),
    port,
    dataDir: dirs[name],
    child,
  });
  const a = make('A', portA, bootA.child);
  const b = make('B', portB, bootB.child);
  const both = [a, b];
  const byId = new Map(both.map((x) => [x.id, x]));
  let stopping = false;
  for (const x of both) {
    x.child.once('exit', (code, signal) => {
      if (!stopping) console.error(`\n!!! Server ${x.name} exited during the benchmark (${code ?? signal}).`);
    });
  }
  console.log(
    `First boot (A alone, creates the schema): ready in ${(first.ms / 1000).toFixed(1)} s, RSS ${mb(memFirst.serverMb)} MB`,
  );
  for (const [x, booted] of [
    [a, bootA],
    [b, bootB],
  ] as const) {
    const pid = x.child.pid!;
    const tree = procTree(pid);
    console.log(
      `Server ${x.name} (${x.id}, port ${x.port}): pid ${pid} (${processName(pid)}), ready in ${(booted.ms / 1000).toFixed(1)} s, RSS ${mb(memory(pid).serverMb)} MB; ${
        tree.length === 1
          ? 'no child processes'
          : `child processes: ${tree
              .slice(1)
              .map((p) => `${p} (${processName(p)})`)
              .join(', ')}`
      }`,
    );
  }

  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'gatehouse-bench' });
  // Dropping the database (Ctrl-C, the hard limit) ends this connection: not worth a crash report.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const hold = new Hold(client);
    const probe = (i: number) => crossProbe(...probePlan(i, a, b), hold, byId);
    const baseline = await spawnBaseline(20);
    console.log(
      `Spawn baseline in this (small) client process, spawn('/bin/bash', ['-c', 'date +%s%N']) -> date running: p50 ${ms(pct(baseline, 50))} ms, p99 ${ms(pct(baseline, 99))} ms`,
    );
    const warm = await probeSeries(WARMUP_PROBES, probe);
    console.log(
      `Warm-up: ${warm.probes.length} probe runs${warm.failed ? `, ${warm.failed} failed (${warm.errors[0]})` : ''} (not counted)`,
    );
    if (warm.probes.length === 0) throw new Error(`no probe run succeeded during warm-up: ${warm.errors.join('; ')}`);
    console.log('');

    const background = new Background((n) => (n % 2 === 1 ? a : b));
    const paused = background.paused;
    const levels: TwoLevel[] = [];
    const gone = () => both.find((x) => x.child.exitCode !== null || x.child.signalCode !== null);
    for (const [i, n] of LEVELS.entries()) {
      const count = PROBES[i] ?? PROBES.at(-1) ?? 20;
      process.stdout.write(
        `N = ${n.toLocaleString('en-US')}: starting ${Math.max(0, n - paused.length)} background runs on A and B ... `,
      );
      const filled = await background.fill(n);
      const counts = background.countBy();
      console.log(
        `${paused.length} paused (A ${counts.get('A') ?? 0}, B ${counts.get('B') ?? 0}; ${(filled.ms / 1000).toFixed(1)} s, ${filled.added > 0 ? (filled.added / (filled.ms / 1000)).toFixed(0) : '-'} runs/s${filled.failed ? `, ${filled.failed} failed` : ''})`,
      );
      if (filled.stoppedEarly) console.log(`  !!! stopped early: ${filled.stoppedEarly}`);
      for (const e of filled.errors) console.log(`  ! ${e}`);
      if (gone()) throw new Error(`server ${gone()!.name} is gone`);

      const memPaused = both.map((x) => memory(x.child.pid!));
      const cpu0 = both.map((x) => cpuSeconds(x.child.pid!));
      await sleep(IDLE_WINDOW_MS);
      const idleCpuPct = both.map((x, j) => ((cpuSeconds(x.child.pid!) - cpu0[j]!) / (IDLE_WINDOW_MS / 1000)) * 100);
      process.stdout.write(
        `  RSS A ${mb(memPaused[0]!.serverMb)} MB, B ${mb(memPaused[1]!.serverMb)} MB; idle CPU A ${idleCpuPct[0]!.toFixed(0)}%, B ${idleCpuPct[1]!.toFixed(0)}%; ${2 * count} probes (${count} across) ... `,
      );
      const tProbes = performance.now();
      const steal = stealWindow();
      const set = await probeSeries(2 * count, probe);
      const stealPct = steal();
      console.log(
        `${set.probes.length} done in ${((performance.now() - tProbes) / 1000).toFixed(1)} s${set.failed ? `, ${set.failed} failed` : ''}; CPU steal ${stealPct.toFixed(1)}%`,
      );
      if (set.stoppedEarly) console.log(`  !!! stopped early: ${set.stoppedEarly}`);
      for (const e of set.errors) console.log(`  ! ${e}`);
      levels.push({
        n,
        pausedNow: paused.length,
        counts,
        fill: filled,
        idleCpuPct,
        memPaused,
        memAfter: both.map((x) => memory(x.child.pid!)),
        set,
        stealPct,
      });
    }

    process.stdout.write(
      `Throughput: starting ${THROUGHPUT_RUNS} runs (alternately on A and B) and approving them all, ${THROUGHPUT_CONCURRENCY} in flight ... `,
    );
    const tThroughput = performance.now();
    const throughputSteal = stealWindow();
    const tp = await throughput(a, b, THROUGHPUT_RUNS, THROUGHPUT_CONCURRENCY, client);
    const tpStealPct = throughputSteal();
    console.log(
      `done in ${((performance.now() - tThroughput) / 1000).toFixed(1)} s; CPU steal ${tpStealPct.toFixed(1)}%`,
    );
    for (const e of tp.fill.errors) console.log(`  ! ${e}`);
    if (gone()) throw new Error(`server ${gone()!.name} is gone`);
    const memThroughput = both.map((x) => memory(x.child.pid!));

    stopping = true;
    await Promise.all(both.map((x) => stopServer(x.child)));
    const probed = levels.flatMap((l) => l.set.probes);
    const stamps = await serverStamps(
      { databaseUrl, dataDir: dirs.A },
      probed.map((p) => p.runId),
    ).catch((error: Error) => error);
    return report({
      levels,
      tp,
      tpStealPct,
      memThroughput,
      stamps,
      backgroundPaused: paused.length,
      memFirstMb: memFirst.serverMb,
    });
  } finally {
    await client.end().catch(() => undefined);
  }
}
