// How fast an approved bash command starts, in this process, through the spawn helper and its spare
// bashes (lib/agent/exec/spawn-helper.ts), against spawning bash directly from this process.
// Run: npm run bench:spawn  (tsx bench/spawn.bench.ts; about 20 s)
//
// Each round starts `date +%s%N` (it prints its own start, CLOCK_REALTIME) once, then twice at the
// same moment (two approved calls of one step), with a pause between rounds so the helper has its
// spares ready again, as it would between a human's decisions. Figures: p50 / p99 in ms from
// startCommand() to the command running, and how many commands a spare bash took.
import { scrubbedEnv } from '../lib/agent/tools/bash';
import {
  prepareCommands,
  setSpawnMode,
  startCommand,
  startSpawnHelper,
  stopSpawnHelper,
} from '../lib/agent/exec/spawn-helper';
import { tempWorkspace } from '../lib/agent/tools/test-support';

const ROUNDS = Number(process.env.BENCH_SPAWN_ROUNDS ?? 60);
// How long the spares wait before each command: 100 ms by default; a minute or more shows what a
// human's usual wait costs (the kernel may have paged a long-idle bash out meanwhile).
const PAUSE_MS = Number(process.env.BENCH_SPAWN_PAUSE_MS ?? 100);
const wall = () => performance.timeOrigin + performance.now();

interface Started {
  ms: number;
  warm: boolean;
}

function startDate(cwd: string, env: Record<string, string>): Promise<Started> {
  const t0 = wall();
  return new Promise((resolve, reject) => {
    let out = '';
    const handle = startCommand(
      { command: 'date +%s%N', cwd, env, maxOutputBytes: 1000 },
      {
        onData: (chunk) => (out += chunk.toString()),
        onExit: () => undefined,
        onError: reject,
        onLost: (message) => reject(new Error(message)),
        onClose: () => resolve({ ms: Number(BigInt(out.trim()) / 1000n) / 1000 - t0, warm: handle.warm }),
      },
    );
  });
}

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;
const row = (name: string, runs: Started[]) =>
  console.log(
    `  ${name.padEnd(34)} ${pct(
      runs.map((r) => r.ms),
      50,
    )
      .toFixed(2)
      .padStart(6)} / ${pct(
      runs.map((r) => r.ms),
      99,
    )
      .toFixed(2)
      .padStart(6)}   ${runs.filter((r) => r.warm).length}/${runs.length}`,
  );

async function series(cwd: string, env: Record<string, string>) {
  const single: Started[] = [];
  const first: Started[] = [];
  const second: Started[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    single.push(await startDate(cwd, env));
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    const [a, b] = await Promise.all([startDate(cwd, env), startDate(cwd, env)]);
    first.push(a!);
    second.push(b!);
  }
  return { single, first, second };
}

async function main() {
  const t = await tempWorkspace();
  const env = scrubbedEnv(t.workspace);
  try {
    console.log(
      `Starting \`date +%s%N\` from this process: ${ROUNDS} rounds, ${PAUSE_MS} ms apart; ms from startCommand() to the command running, p50 / p99, and how many a spare bash took.`,
    );
    console.log(`  ${'case'.padEnd(34)} ${'p50'.padStart(6)} / ${'p99'.padStart(6)}   spare`);
    await startSpawnHelper();
    prepareCommands({ cwd: t.workspace, env });
    const helper = await series(t.workspace, env);
    row('helper: one command', helper.single);
    row('helper: two at once, first', helper.first);
    row('helper: two at once, second', helper.second);
    stopSpawnHelper();
    if (PAUSE_MS > 1_000) {
      console.log('  (direct spawn not measured with a pause over 1 s: it keeps no process waiting)');
      return;
    }
    setSpawnMode('direct');
    const direct = await series(t.workspace, env);
    row('direct spawn: one command', direct.single);
    row('direct spawn: two at once, second', direct.second);
  } finally {
    await t.cleanup();
  }
}

void main().then(
  () => process.exit(0),
  (error: Error) => {
    console.error(error);
    process.exit(1);
  },
);
