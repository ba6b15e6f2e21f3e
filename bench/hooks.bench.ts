// Claude Code hook benchmark.  Run: npm run bench:hooks  (tsx bench/hooks.bench.ts)
//
// What it measures: the latency Claude Code sees for an allowed PreToolUse `http` hook call, i.e.
// POST /api/hooks/claude-code with a real 2.1.328 hook body (lib/server/hooks/fixtures/) for a
// `Bash` call that a policy rule allows, answered with the hook output, against a bare node HTTP
// server on the same machine that reads and parses the same body and answers the same JSON.
// The two are probed alternately in one run (the order flips every iteration), one request at a
// time, each over its own kept-alive connection (bench/gate/decision-client.ts: the stamp is taken
// when the request's bytes are written). A third series, the same POST without a token (401 before
// any decision), and a fourth with a token and a `tool_input` Claude Code never sends (a string: refused
// with a deny before the gate, no database), split the difference into HTTP and routing, then the
// token check, body and parsing, then the gate itself.
// Gatehouse is the production server as `npm start` runs it (scripts/serve.sh; bench/gate/servers.ts),
// embedded PGlite in a fresh temp dir booted twice (the measured boot is not the one that ran initdb).
// Each allowed call is recorded as it is for Gatehouse's own agent: the session's run is looked up
// (or opened), the policy evaluated with its grants, and the tool_call event and audit row appended
// (on PGlite journaled before the answer and stored just after it: docs/decisions/0026). A fifth
// series times an allowed call sent the moment the previous one was answered, so it waits for that
// store: what a burst of calls sees. Every other probe starts 2 ms after the last answer, on an
// idle server, as Claude Code's calls do (a tool runs and the model answers between two).
// CPU steal during the measured window is printed; above 5% the host was busy (bench/README.md).
//
// Knobs: BENCH_HOOKS_ITERATIONS (measured probes per series, default 1000; 200 with BENCH_QUICK=1),
// BENCH_GATE_PORT (Gatehouse's port, default a free one).
import { readFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTH, positiveInt, QUICK, ROOT } from './gate/config';
import { DecisionClient, type Answered } from './gate/decision-client';
import { CpuWindow, cpuSeconds, noisyNote, procTree, stealWindow } from './gate/proc';
import { startBare } from './hooks/bare-server';
import {
  armHardLimit,
  boot,
  cleanup,
  ensureBuild,
  freePort,
  onSignals,
  removeAtExit,
  stopServer,
} from './gate/servers';
import { mean, ms, pct, table } from './gate/stats';

const ITERATIONS = positiveInt('BENCH_HOOKS_ITERATIONS', QUICK ? 200 : 1000);
const WARMUP = 200;
const TARGET_RATIO = 5;
/** The pause before each probe (ms): the previous answer's record is stored meanwhile. */
const IDLE_MS = 2;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const HOOK_PATH = '/api/hooks/claude-code';
const FIXTURE = path.join(ROOT, 'lib/server/hooks/fixtures/claude-code-2.1.328.pre-tool-use.bash.json');

async function main(): Promise<number> {
  onSignals('stopping the server and removing the data directory.');
  ensureBuild();
  armHardLimit();
  console.log('Claude Code hook benchmark: an allowed PreToolUse decision, Gatehouse vs a bare node HTTP server');
  console.log(
    `  node ${process.version}, ${os.cpus().length} CPUs, ${ITERATIONS} probes per series after ${WARMUP} warm-up, alternating`,
  );

  const dir = removeAtExit(mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-hooks-')));
  const workspace = removeAtExit(mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-hooks-cwd-')));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The first boot creates the database; the measured server is the second, as every later start.
  await stopServer((await boot(base, port, dir)).child);
  const server = await boot(base, port, dir);
  await allowEchoBench(base);

  const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Record<string, unknown>;
  let n = 0;
  const body = () =>
    JSON.stringify({
      ...fixture,
      session_id: 'bench-hooks-session',
      cwd: workspace,
      tool_input: { command: 'echo bench', description: 'Print a word' },
      tool_use_id: `toolu_bench_${++n}`,
    });
  const expected = await allowedAnswer(base, body());
  const bare = await startBare(expected);

  const gatehouse = new DecisionClient(base);
  const anonymous = new DecisionClient(base);
  const peer = new DecisionClient(bare.url);
  const headers = { ...AUTH, 'Content-Type': 'application/json' };
  const refusedClient = new DecisionClient(base);
  const series = {
    gatehouse: [] as number[],
    unauthenticated: [] as number[],
    refused: [] as number[],
    bare: [] as number[],
    burst: [] as number[],
  };
  // The server's CPU time from before each request to after its answer, summed per series: ticks
  // of 10 ms sampled by the kernel, so only the sum over many requests means something; unlike the
  // latency, it does not grow while the server waits for a CPU that other work holds.
  const serverCpu = { gatehouse: 0, unauthenticated: 0, refused: 0, bare: NaN, burst: 0 };
  const serverPid = server.child.pid!;
  const probe = async (name: keyof typeof series, client: DecisionClient, keep: boolean) => {
    const anonymous = name === 'unauthenticated';
    const sent = name === 'refused' ? JSON.stringify({ ...JSON.parse(body()), tool_input: 'x' }) : body();
    const cpu0 = keep ? cpuSeconds(serverPid) : 0;
    const answer = await client.post(HOOK_PATH, anonymous ? { 'Content-Type': 'application/json' } : headers, sent);
    check(
      name,
      answer,
      anonymous ? 401 : 200,
      name === 'refused' ? /"permissionDecision":"deny"/ : anonymous ? undefined : expected,
    );
    if (!keep) return;
    series[name].push(answer.answeredAt - answer.sentAt);
    serverCpu[name] += cpuSeconds(serverPid) - cpu0;
  };

  let steal = () => NaN;
  let cpu: CpuWindow | undefined;
  // An allowed call's record is stored just after its answer (journaled before it): a call that
  // comes at once, while that store runs, waits for it. Measured: the second of two allowed calls.
  const burst = async () => {
    await probe('gatehouse', gatehouse, false);
    await probe('burst', gatehouse, keep);
  };
  const order = [
    () => probe('gatehouse', gatehouse, keep),
    () => probe('bare', peer, keep),
    () => probe('unauthenticated', anonymous, keep),
    () => probe('refused', refusedClient, keep),
    burst,
  ];
  let keep = false;
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    keep = i >= WARMUP;
    if (i === WARMUP) {
      steal = stealWindow();
      cpu = new CpuWindow([procTree(server.child.pid!)]);
    }
    // Each series goes first, second, ... in turn, so none always follows the same one; each probe
    // starts on an idle server (IDLE_MS after the last answer), as Claude Code's calls come: between
    // two of them a tool runs and the model answers. The burst series is the case without the gap.
    for (let k = 0; k < order.length; k++) {
      await sleep(IDLE_MS);
      await order[(i + k) % order.length]!();
    }
  }
  const stealPct = steal();
  const load = cpu!.read();

  for (const client of [gatehouse, anonymous, refusedClient, peer]) client.close();
  await bare.close();
  await stopServer(server.child);

  const row = (label: string, name: keyof typeof series) => [
    label,
    ms(pct(series[name], 50)),
    ms(pct(series[name], 99)),
    ms(mean(series[name])),
    `${(pct(series[name], 50) / pct(series.bare, 50)).toFixed(1)}x`,
    ms((serverCpu[name] * 1000) / series[name].length),
  ];
  console.log('');
  table(
    ['series (client: request written -> answer read, ms)', 'p50', 'p99', 'mean', 'p50 / bare', 'server CPU'],
    [
      row('bare node http server, same body parsed, same JSON', 'bare'),
      row('Gatehouse, no token (401: HTTP, proxy, routing)', 'unauthenticated'),
      row('Gatehouse, token + body parsed, refused before the gate', 'refused'),
      row('Gatehouse, allowed decision (recorded)', 'gatehouse'),
      row('Gatehouse, allowed decision right after another', 'burst'),
    ],
  );
  const ratio = pct(series.gatehouse, 50) / pct(series.bare, 50);
  const others = load.machinePct - load.groupPct[0]! - load.selfPct;
  console.log(
    `\n  CPU steal during the probes: ${Number.isFinite(stealPct) ? stealPct.toFixed(1) : '?'}%${noisyNote(stealPct)}`,
  );
  console.log(
    `  CPU (% of one CPU): machine ${load.machinePct.toFixed(0)}, Gatehouse ${load.groupPct[0]!.toFixed(0)}, this benchmark ${load.selfPct.toFixed(0)}, ` +
      `other work ${others.toFixed(0)} (load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} CPUs)` +
      (others > 50 ? ': the machine was busy with other work, the figures are inflated' : ''),
  );
  console.log(
    `  allowed decision p50 = ${ratio.toFixed(1)}x the bare server's (target <= ${TARGET_RATIO}x): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
  );
  return 0;
}

/** A rule that allows the probe's command for Claude Code, saved over the API (If-Match on the version). */
async function allowEchoBench(base: string): Promise<void> {
  const current = (await (await fetch(`${base}/api/policy`, { headers: AUTH })).json()) as {
    version: number;
    policy: { rules: unknown[] };
  };
  const rule = {
    id: 'bench-hooks',
    action: 'allow',
    tool: 'bash',
    agent: 'claude-code',
    params: { command: 'echo bench' },
  };
  const saved = await fetch(`${base}/api/policy`, {
    method: 'PUT',
    headers: { ...AUTH, 'Content-Type': 'application/json', 'If-Match': `"${current.version}"` },
    body: JSON.stringify({
      policy: { ...current.policy, rules: [rule, ...current.policy.rules] },
      note: 'bench:hooks',
    }),
  });
  if (!saved.ok) throw new Error(`saving the policy failed: ${saved.status} ${await saved.text()}`);
}

/** Gatehouse's answer to the probe body: the JSON the bare server will send back verbatim. */
async function allowedAnswer(base: string, body: string): Promise<string> {
  const response = await fetch(`${base}${HOOK_PATH}`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/json' },
    body,
  });
  const text = await response.text();
  const output = JSON.parse(text) as { hookSpecificOutput?: { permissionDecision?: string } };
  if (response.status !== 200 || output.hookSpecificOutput?.permissionDecision !== 'allow')
    throw new Error(`the probe call is not allowed: ${response.status} ${text}`);
  return text;
}

function check(name: string, answer: Answered, status: number, body: string | RegExp | undefined): void {
  const matches = body === undefined || (typeof body === 'string' ? answer.body === body : body.test(answer.body));
  if (answer.status !== status || !matches)
    throw new Error(`${name}: expected ${status} ${body ?? ''}, got ${answer.status} ${answer.body}`);
}

main()
  .then((code) => {
    cleanup();
    process.exit(code);
  })
  .catch((error: unknown) => {
    console.error(`\n!!! The benchmark failed: ${(error as Error)?.message ?? String(error)}`);
    cleanup();
    process.exit(1);
  });
