// Gatehouse gate benchmark (the server, end to end).  Run: npm run bench:gate  (tsx bench/gate.bench.ts)
//
// What it measures, in one production server process (`next start` as `npm start` runs it, through
// scripts/serve.sh with its node flags and malloc setting; embedded PGlite, offline model) on 127.0.0.1, with N runs held paused on a relay in the background (N = 1, 100, 1,000):
//   call->relay      the time from the gate's decision on a tool call to the `relay` SSE event in the
//                    client: receipt time (client) minus `relay.createdAt` (server, Date.now(), set
//                    right after the policy decided the call, before the relay row is inserted).
//                    Includes: suggested rules, relay INSERT, the audit INSERT and event append of the
//                    tool_call ahead of it in the run's pump, run status UPDATE, the relay's event
//                    append, SSE and loopback TCP. Not included: the model step's checkpoint UPDATE and
//                    the grants SELECT between the model's tool call and the decision (no server
//                    timestamp exists for them; they are in POST->relay and in the breakdown).
//   POST->relay      POST /api/chat sent to `relay` received: everything (HTTP, run creation,
//                    policy load, the model step, checkpoint, gate, relay, SSE). Information.
//   decision->start  POST /api/chat/relay/:id sent (client clock) to the moment the approved `bash`
//                    command runs: the probe command is `date +%s%N`, which prints its own start
//                    (CLOCK_REALTIME, ns) in the tool_result. Includes: HTTP, Next's routing, the
//                    token check (a lookup, or its cached rows), the relay's session and owner (from
//                    memory while the relay waits in the server), the conditional settle UPDATE
//                    (which also claims the call in tool_executions), waking the waiter, and starting the command
//                    (through the spawn helper, normally in its spare bash; the probes count which
//                    path ran). "Start" is the command itself executing.
//   breakdown        after the server stopped, its PGlite is opened here and the probes' server-side
//                    stamps (runs.created_at, relays.created_at/decided_at, events.created_at,
//                    tool_executions.claimed_at; whole ms) split both paths into stages.
// receipt(relay) - receipt(tool_call) cannot be used as a second figure: the stream of POST
// /api/chat subscribes to the run when the response starts, and its first replay of the event log
// (a SELECT that waits in PGlite's one-at-a-time queue behind the run's own writes) finishes only
// after the relay was appended; live events that arrive meanwhile are buffered, so tool_call and
// relay reach the client in one read (the script counts how often).
// Clocks: client and server share the machine's CLOCK_REALTIME. The client reads it with sub-ms
// resolution as performance.now() + an offset re-calibrated on a Date.now() millisecond edge before
// every probe. relay.createdAt is whole milliseconds (floored), so call->relay reads 0-1 ms high
// (0.5 ms on average).
// Load: N background runs (`$ echo <i>`, each asks: bash asks by default) are started 20 at a time
// and left paused; their streams are closed once their relay arrived (closing a stream does not stop
// a run). Probes run one at a time on top of them (so N + 1 runs are paused while a probe waits).
// p99 over 20-50 probes is the slowest probe or close to it.
// Server: the same fresh temp data dir is booted twice; the first boot creates the database (initdb
// leaves PGlite's WebAssembly heap much larger), the measured server is the second boot, as every
// start after the first one is in production. GATEHOUSE_APPROVAL_TIMEOUT_S=3600 so no background
// relay expires during the run.
// RSS: VmRSS of the spawned `next start` process from /proc plus its children (the spawn helper and
// its spare bash); the target is judged on the sum, the server alone is printed beside it. The sum
// overstates the memory used: the server and the helper are both node, and each one's RSS counts
// the pages of the node binary they share (about 35 MB). Their PSS (smaps_rollup, shared pages
// split between the processes mapping them) is printed beside it as information.
// BENCH_GATE_DATABASE_URL=postgres://...: the same on PostgreSQL (a scratch database is created on
// that server and dropped at the end); the targets are judged on the embedded PGlite.
//
// Environment knobs (optional): BENCH_GATE_LEVELS (default "1,100,1000"), BENCH_GATE_PROBES
// (probes per level, default "40,40,20"), BENCH_GATE_PORT (default: a free port),
// BENCH_QUICK=1 (levels 1,100 with 10 probes each: a smoke run).
//
// `--instances 2` (or BENCH_GATE_INSTANCES=2): two servers, A and B, on one scratch PostgreSQL
// database (BENCH_GATE_DATABASE_URL's server, else the local cluster) and one workspace. The same
// figures across instances: a probe run executes on one and is followed (GET /api/runs/:id/events)
// and decided on the other, next to the same-instance peer; then decisions per second across both
// (K paused runs approved concurrently, half of them through the other instance). Levels 1 and 100
// by default. Details: bench/gate/cross-probe.ts, bench/gate/throughput.ts, bench/README.md.
//
// The pieces live in bench/gate/: one-instance.ts and two-instances.ts are the two modes; servers,
// SSE client, probes, background runs, /proc readings, database stamps and tables are shared.
import { parseArgs, USAGE, UsageError, type GateArgs } from './gate/args';
import { cleanup, printServerLog } from './gate/servers';

let args: GateArgs;
try {
  args = parseArgs(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof UsageError)) throw error;
  console.error(`bench:gate: ${error.message}\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
// Each mode is loaded only when chosen (the two-instance one brings pg along).
const mode =
  args.instances === 2
    ? await import('./gate/two-instances').then((m) => ({
        check: m.checkTwoInstanceArguments,
        run: m.twoInstances,
        drop: m.dropTwoInstanceDatabase,
      }))
    : await import('./gate/one-instance').then((m) => ({
        check: m.checkArguments,
        run: m.oneInstance,
        drop: m.dropDatabase,
      }));
mode.check();

mode
  .run()
  .then(async (code) => {
    cleanup();
    await mode.drop();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(`\n!!! The benchmark failed: ${(error as Error)?.message ?? String(error)}`);
    printServerLog();
    cleanup();
    await mode.drop();
    process.exit(1);
  });
