// What `--instances 2` prints at the end: latency across instances next to the same-instance peer,
// the two server processes, where the time goes (server stamps), decisions per second, a summary.
import os from 'node:os';
import type { FillReport } from './background';
import { T00 } from './config';
import { isCross, isSame, type CrossProbe } from './cross-probe';
import { noisyNote, type Memory } from './proc';
import { spawnedVia, type ProbeSet } from './probe';
import { mb, ms, pair, pct, table } from './stats';
import { d, stageMean, type ServerStamps, type Stage } from './stamps';
import type { ThroughputResult } from './throughput';

export interface TwoLevel {
  n: number;
  pausedNow: number;
  /** Background runs paused per instance (by where they were started). */
  counts: Map<string, number>;
  fill: FillReport;
  /** [A, B] */
  idleCpuPct: number[];
  memPaused: Memory[];
  memAfter: Memory[];
  set: ProbeSet<CrossProbe>;
  /** CPU steal during the probes, % of the machine's CPU time (proc.ts stealWindow). */
  stealPct: number;
}

export interface TwoReport {
  levels: TwoLevel[];
  tp: ThroughputResult;
  /** CPU steal during the throughput run. */
  tpStealPct: number;
  memThroughput: Memory[];
  stamps: Map<string, ServerStamps> | Error;
  backgroundPaused: number;
  memFirstMb: number;
}

const STAGES: Stage<CrossProbe>[] = [
  {
    label: 'gate decided -> tool_call event stored (relay INSERT; audit + event append)',
    of: (_, s) => d(s.gateDecided, s.toolCallStored),
  },
  {
    label: 'tool_call stored -> relay event stored (run status + event append)',
    of: (_, s) => d(s.toolCallStored, s.relayStored),
  },
  {
    label: 'relay event stored -> relay received via the serving instance (across: NOTIFY, log read)',
    of: (p, s) => d(s.relayStored, p.tRelay),
  },
  {
    label: 'decision POST sent -> decision taken on the serving instance (HTTP, route, SELECTs)',
    of: (p, s) => d(p.tDecision, s.decided),
  },
  {
    label: 'decision taken -> execution claim (settle; across: NOTIFY, executor re-reads the relay; wake)',
    of: (_, s) => d(s.decided, s.claimed),
  },
  {
    label: 'execution claim -> bash running (claim INSERT, command written to the spare bash: cd, exec date)',
    of: (p, s) => d(s.claimed, p.tStarted),
  },
];

const FIGURES: Array<[string, (p: CrossProbe) => number]> = [
  ['call->relay', (p) => p.callToRelay],
  ['decision->start', (p) => p.decisionToStart],
  ['decision POST answered', (p) => p.decisionResponse],
  ['bash start->tool_result', (p) => p.startToResult],
];

const count = (n: number) => n.toLocaleString('en-US');
const ratio = (x: number, y: number) =>
  Number.isFinite(x) && Number.isFinite(y) && y > 0 ? `x${(x / y).toFixed(2)}` : '-';
const rate = (n: number, msTaken: number) => (msTaken > 0 ? (n / (msTaken / 1000)).toFixed(0) : '-');

export function report({
  levels,
  tp,
  tpStealPct,
  memThroughput,
  stamps,
  backgroundPaused,
  memFirstMb,
}: TwoReport): number {
  const label = (l: TwoLevel) => (l.pausedNow === l.n ? count(l.n) : `${count(l.pausedNow)} (of ${count(l.n)})`);
  const groups = (l: TwoLevel): Array<[string, CrossProbe[]]> => {
    const across = l.set.probes.filter(isCross);
    const same = l.set.probes.filter(isSame);
    const paths = [...new Set(across.map((p) => `${p.executedBy} -> ${p.via}`))].sort();
    return [
      ...paths.map((path): [string, CrossProbe[]] => [
        `${path} (across)`,
        across.filter((p) => `${p.executedBy} -> ${p.via}` === path),
      ]),
      ['across, both ways', across],
      ['same instance (A -> A, B -> B)', same],
    ];
  };
  console.log('');
  console.log('Latency in ms, p50 / p99 over the probes; "A -> B" = executed by A, stream and decision served by B:');
  table(
    ['N paused', 'path', 'probes', ...FIGURES.map(([name]) => name)],
    levels.flatMap((l) => {
      const rows = groups(l).map(([name, ps]) => [
        label(l),
        name,
        String(ps.length),
        ...FIGURES.map(([, of]) => pair(ps.map(of))),
      ]);
      const [across, same] = [l.set.probes.filter(isCross), l.set.probes.filter(isSame)];
      rows.push([
        label(l),
        'across / same, p50',
        '',
        ...FIGURES.map(([, of]) => ratio(pct(across.map(of), 50), pct(same.map(of), 50))),
      ]);
      if (l.set.failed) rows.push([label(l), `(${l.set.failed} failed)`, '', '', '', '', '']);
      return rows;
    }),
    2,
  );
  const all = levels.flatMap((l) => l.set.probes);
  const adopted = all.filter((p) => (isCross(p) || isSame(p)) && p.executedBy !== p.startedOn).length;
  const unknown = all.filter((p) => !isCross(p) && !isSame(p)).length;
  console.log(
    `  executed by the instance that started the run in ${all.length - adopted - unknown} of ${all.length} probes${adopted ? ` (${adopted} adopted by the other instance's takeover scan before the starter leased them)` : ''}${unknown ? `; ${unknown} without a lease owner (left out of across and same)` : ''}.`,
  );
  const live = all.filter((p) => p.decidedAfterOpen).length;
  console.log(
    `  the gate decided after the follower's stream was open in ${live} of ${all.length} probes (held ${ms(
      pct(
        all.map((p) => p.heldMs),
        50,
      ),
    )} ms at p50 for that)${live === all.length ? '' : ": the others' relays may have come from the first read of the log, not a notification"}.`,
  );
  console.log(
    `  probe commands started by: ${[...spawnedVia].map(([k, v]) => `${k} ${v}`).join(', ')} (warm-up included).`,
  );
  console.log(
    `  load average of the machine (1 / 5 / 15 min) at the end: ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ')} on ${os.cpus().length} CPUs.`,
  );

  console.log('');
  console.log(
    'Server processes (background runs alternate between A and B; RSS of the server, + its children, i.e. the spawn helper):',
  );
  const rss = (m: Memory) => mb(m.serverMb) + (m.processes > 1 ? ` (+${mb(m.treeMb - m.serverMb)})` : '');
  table(
    [
      'N paused',
      'on A / B',
      'start N (s)',
      'runs/s',
      'RSS MB A, N paused',
      'RSS MB B, N paused',
      'RSS MB A / B after probes',
      'idle CPU % A / B',
    ],
    levels.map((l) => [
      label(l),
      `${l.counts.get('A') ?? 0} / ${l.counts.get('B') ?? 0}`,
      (l.fill.ms / 1000).toFixed(1),
      l.fill.added > 0 ? rate(l.fill.added, l.fill.ms) : '-',
      rss(l.memPaused[0]!),
      rss(l.memPaused[1]!),
      `${mb(l.memAfter[0]!.serverMb)} / ${mb(l.memAfter[1]!.serverMb)}`,
      l.idleCpuPct.map((x) => x.toFixed(0)).join(' / '),
    ]),
  );
  console.log(
    `  (first boot of A, which created the schema: RSS ${mb(memFirstMb)} MB; after the throughput run: A ${rss(memThroughput[0]!)} MB, B ${rss(memThroughput[1]!)} MB)`,
  );

  if (stamps instanceof Error) {
    console.log(`\n(no breakdown: could not read the database afterwards: ${stamps.message})`);
  } else {
    console.log('');
    console.log(
      'Where the time goes: mean ms per stage, server stamps read from PostgreSQL after the run (one machine clock); the first',
    );
    console.log('three rows add up to call->relay, the last three to decision->start:');
    table(
      ['stage', ...levels.flatMap((l) => [`N=${count(l.n)} across`, `N=${count(l.n)} same`])],
      STAGES.map((stage) => [
        stage.label,
        ...levels.flatMap((l) =>
          [l.set.probes.filter(isCross), l.set.probes.filter(isSame)].map((ps) => {
            const m = stageMean(stage, ps, stamps);
            return m === undefined ? '-' : ms(m);
          }),
        ),
      ]),
    );
  }

  // Throughput -----------------------------------------------------------------------------------
  const ok = tp.decisions.filter((x) => x.status === 200);
  const crossDecision = (x: ThroughputResult['decisions'][number]) => x.executedBy !== x.to;
  const wallAnswered = tp.tLastAnswer - tp.tFirst;
  const wallDone = tp.tLastDone === undefined ? NaN : tp.tLastDone - tp.tFirst;
  const toDone = (xs: typeof tp.decisions) =>
    xs.flatMap((x) => (tp.decisionToDone.has(x.run.runId) ? [tp.decisionToDone.get(x.run.runId)!] : []));
  const exec = (name: string) => tp.decisions.filter((x) => x.executedBy === name).length;
  console.log('');
  console.log(
    `Decisions per second across both instances: ${count(tp.k)} runs paused (executed by A ${exec('A')}, B ${exec('B')}; started in ${(tp.fill.ms / 1000).toFixed(1)} s), then every approval`,
  );
  console.log(
    `POSTed with ${tp.concurrency} in flight, a quarter each way (to the executing instance, or to the other one); ${count(backgroundPaused)} background runs stay paused:`,
  );
  table(
    ['decisions', 'sent', 'HTTP 200', 'POST answered p50 / p99 (ms)', 'POST sent -> run done stored p50 / p99 (ms)'],
    (
      [
        ['all', tp.decisions],
        ['to the other instance', tp.decisions.filter(crossDecision)],
        ['to the executing instance', tp.decisions.filter((x) => !crossDecision(x))],
      ] as const
    ).map(([name, xs]) => [
      name,
      String(xs.length),
      String(xs.filter((x) => x.status === 200).length),
      pair(xs.map((x) => x.t1 - x.t0)),
      pair(toDone(xs)),
    ]),
  );
  const decisionsPerS = ok.length / (wallAnswered / 1000);
  const completedPerS = tp.finished / (wallDone / 1000);
  console.log(
    `  decisions accepted per second: ${Number.isFinite(decisionsPerS) ? decisionsPerS.toFixed(0) : '-'} (${ok.length} HTTP 200 in ${ms(wallAnswered)} ms, first POST sent -> last answer)`,
  );
  console.log(
    `  runs completed per second:     ${Number.isFinite(completedPerS) ? completedPerS.toFixed(0) : '-'} (${tp.finished} runs in ${ms(wallDone)} ms, first POST sent -> last run's \`done\` stored)`,
  );
  const others = tp.decisions.filter((x) => x.status !== 200);
  if (others.length)
    console.log(
      `  !!! ${others.length} decisions not answered 200: ${[...new Set(others.map((x) => `${x.status} ${x.error ?? ''}`.trim()))].slice(0, 3).join('; ')}`,
    );
  const c = tp.cpu;
  console.log(
    `  CPU from the first POST until every run finished (${c.seconds.toFixed(1)} s), in % of one CPU: the machine ${c.machinePct.toFixed(0)}% of ${os.cpus().length * 100}%;`,
  );
  console.log(
    `    server A ${c.groupPct[0]!.toFixed(0)}%, B ${c.groupPct[1]!.toFixed(0)}% (each with its spawn helper), postgres ${c.postgresPct.toFixed(0)}% (all its processes), this client ${c.selfPct.toFixed(0)}%, the rest (bash children, other work on the machine) ${(c.machinePct - c.groupPct[0]! - c.groupPct[1]! - c.postgresPct - c.selfPct).toFixed(0)}%`,
  );
  console.log(
    `  checks: ${tp.problems.length === 0 ? `all ${tp.k} runs done, each with one tool execution and one tool_result printing its own word` : tp.problems.join('; ')}`,
  );

  // Summary --------------------------------------------------------------------------------------
  const r100 = levels.find((l) => l.n === 100 && l.set.probes.length > 0) ?? levels.at(-1);
  const p50 = (ps: CrossProbe[], of: (p: CrossProbe) => number) => pct(ps.map(of), 50);
  console.log('');
  console.log('Summary (information: the one-instance targets are judged on PGlite by `npm run bench:gate`)');
  if (r100) {
    const [across, same] = [r100.set.probes.filter(isCross), r100.set.probes.filter(isSame)];
    for (const [name, of] of FIGURES.slice(0, 2)) {
      console.log(
        `  ${name} p50 at ${count(r100.n)} paused runs, across instances: ${ms(p50(across, of))} ms (same instance ${ms(p50(same, of))} ms, ${ratio(p50(across, of), p50(same, of))}; p99 across ${ms(pct(across.map(of), 99))} ms)${noisyNote(r100.stealPct)}`,
      );
    }
  }
  console.log(
    `  decisions accepted per second across both: ${Number.isFinite(decisionsPerS) ? decisionsPerS.toFixed(0) : '-'}; runs completed per second: ${Number.isFinite(completedPerS) ? completedPerS.toFixed(0) : '-'} (${tp.k} runs, ${tp.concurrency} in flight)${noisyNote(tpStealPct, 'the throughput run')}`,
  );
  const correct = tp.problems.length === 0 && others.length === 0;
  console.log(
    `  ${correct ? 'PASS' : 'FAIL'}  every decision answered 200, every run done, each tool ran exactly once`,
  );
  console.log(`\n(total run time ${((performance.now() - T00) / 1000).toFixed(1)} s)`);
  const probed = levels.every((l) => l.set.probes.some(isCross) && !l.fill.stoppedEarly);
  return probed && correct ? 0 : 1;
}
