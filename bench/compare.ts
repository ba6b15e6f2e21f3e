// Two commits side by side: builds a checkout of each in a temp dir (bench/compare/checkout.ts),
// runs the same npm bench script in them alternately (A, B, A, B... so a slow spell of the host
// hits both), parses every figure of the tables each run prints (bench/compare/figures.ts), and
// prints each figure's median for A and B with B/A, and the CPU steal and the machine's load
// during each side's runs (a bench timed while other processes hold the CPUs is not comparable).
// Usage: bench/compare/args.ts, or `npm run bench:compare -- --help`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCompareArgs, USAGE, UsageError, type CompareArgs } from './compare/args';
import { prepareCheckout, repositoryRoot, type Checkout } from './compare/checkout';
import { compareFigures, formatComparison, median, parseFigures, type Figures } from './compare/figures';
import { machineJiffies, NOISY_STEAL_PCT, stealWindow } from './gate/proc';

const log = (line: string) => process.stderr.write(`bench:compare: ${line}\n`);

function runBench(checkout: Checkout, args: CompareArgs): Promise<{ output: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const argv = ['run', '--silent', args.script, ...(args.benchArgs.length ? ['--', ...args.benchArgs] : [])];
    const child = spawn('npm', argv, { cwd: checkout.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ output, code }));
  });
}

function hasScript(checkout: Checkout, script: string): boolean {
  const manifest = JSON.parse(readFileSync(path.join(checkout.dir, 'package.json'), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  return Boolean(manifest.scripts?.[script]);
}

/** The share of all CPUs of the machine that was busy (not idle, not waiting for I/O) since `start`. */
function busyPct(start: ReturnType<typeof machineJiffies>): number {
  const end = machineJiffies();
  return end.total > start.total ? ((end.busy - start.busy) / (end.total - start.total)) * 100 : NaN;
}

const pct = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)}%` : '-');

async function main(args: CompareArgs): Promise<number> {
  const root = repositoryRoot();
  const temp = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-compare-'));
  const cleanup = () => {
    if (!args.keep) rmSync(temp, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    const sides = [
      prepareCheckout(root, args.base, temp, 'A', log),
      prepareCheckout(root, args.head, temp, 'B', log),
    ] as const;
    for (const [label, side] of [
      ['A', sides[0]],
      ['B', sides[1]],
    ] as const) {
      if (!hasScript(side, args.script))
        throw new UsageError(`${label} (${side.ref}) has no npm script "${args.script}"`);
      log(`${label} = ${side.ref} (${side.commit}) in ${side.dir}, node_modules ${side.modules}`);
    }
    if (sides[0].commit === sides[1].commit) log('A and B are the same commit: the comparison shows the noise alone');

    const figures: [Figures[], Figures[]] = [[], []];
    const steal: [number[], number[]] = [[], []];
    const busy: [number[], number[]] = [[], []];
    const started = performance.now();
    for (let round = 0; round < args.runs; round++) {
      for (const s of [0, 1] as const) {
        const label = s === 0 ? 'A' : 'B';
        const window = stealWindow();
        const machine0 = machineJiffies();
        const t0 = performance.now();
        const { output, code } = await runBench(sides[s], args);
        const stealPct = window();
        const busyNow = busyPct(machine0);
        const logFile = path.join(temp, `run-${round + 1}-${label}.log`);
        writeFileSync(logFile, output);
        if (code !== 0) {
          process.stderr.write(output.split('\n').slice(-30).join('\n'));
          log(`run ${round + 1} of ${label} exited with ${code}; its output: ${logFile}${args.keep ? '' : ' (kept)'}`);
          args.keep = true;
          return 1;
        }
        const parsed = parseFigures(output);
        if (parsed.size === 0) throw new Error(`run ${round + 1} of ${label} printed no table to parse (${logFile})`);
        figures[s].push(parsed);
        steal[s].push(stealPct);
        busy[s].push(busyNow);
        log(
          `run ${round + 1}/${args.runs} ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s, ${parsed.size} figures, CPU steal ${pct(stealPct)}, machine busy ${pct(busyNow)}`,
        );
      }
    }

    const rows = compareFigures(figures[0], figures[1], { all: args.all, only: args.only });
    console.log(
      `bench:compare: npm run ${args.script}${args.benchArgs.length ? ` -- ${args.benchArgs.join(' ')}` : ''}, ${args.runs} runs each, alternating A, B (node ${process.version}, ${os.cpus().length} CPUs)`,
    );
    console.log(`  A = ${sides[0].ref} (${sides[0].commit})`);
    console.log(`  B = ${sides[1].ref} (${sides[1].commit})`);
    console.log(
      `  Medians over the runs of each figure the bench printed in its tables; B/A < 1 means B is lower (faster, for times).${args.all ? '' : ' Constants left out.'}`,
    );
    console.log(
      '  "all above"/"all below": every run of B is above/below every run of A (a change, not noise, at 5+ runs each).',
    );
    console.log('');
    console.log(formatComparison(rows));
    console.log('');
    const noisy = [...steal[0], ...steal[1]].filter((x) => x > NOISY_STEAL_PCT).length;
    console.log(
      `  CPU steal during the runs (share of the machine's CPU time the host took): A median ${pct(median(steal[0]))} (max ${pct(Math.max(...steal[0]))}), B median ${pct(median(steal[1]))} (max ${pct(Math.max(...steal[1]))})`,
    );
    console.log(
      `  Machine busy during the runs (all CPUs; the bench itself keeps about one of ${os.cpus().length} busy): A median ${pct(median(busy[0]))}, B median ${pct(median(busy[1]))}`,
    );
    const busyFloor = 100 / os.cpus().length;
    if (median([...busy[0], ...busy[1]]) > busyFloor + 25) {
      console.log(
        `  The machine was much busier than the bench alone makes it: other processes competed for the CPUs, so differences`,
      );
      console.log('  between A and B here are mostly noise; compare again on a quiet machine before trusting one.');
    }
    if (noisy > 0)
      console.log(
        `  ${noisy} of ${2 * args.runs} runs had more than ${NOISY_STEAL_PCT}% steal: the host was busy; compare again on a quiet host before trusting a small difference.`,
      );
    console.log(
      `  (total ${((performance.now() - started) / 1000).toFixed(0)} s${args.keep ? `; checkouts and logs kept in ${temp}` : ''})`,
    );
    return 0;
  } finally {
    cleanup();
  }
}

let parsed: CompareArgs;
try {
  parsed = parseCompareArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`bench:compare: ${error.message}\n${USAGE}`);
  process.exit(2);
}
if (parsed.help) {
  console.log(USAGE);
  process.exit(0);
}
main(parsed).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`bench:compare: ${error instanceof UsageError ? '' : 'failed: '}${(error as Error).message}`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
