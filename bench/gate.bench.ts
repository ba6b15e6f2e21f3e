// Gatehouse gate benchmark (the server, end to end).  Run: npm run bench:gate  (tsx bench/gate.bench.ts)
//
// What it measures, in one production server process (`next start`, embedded PGlite, offline
// model) on 127.0.0.1, with N runs held paused on a relay in the background (N = 1, 100, 1,000):
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
//                    (CLOCK_REALTIME, ns) in the tool_result. Includes: HTTP, the session check
//                    SELECT, the conditional settle UPDATE, waking the waiter, the tool_executions
//                    claim INSERT, and starting /bin/bash (through the spawn helper once it is up; the
//                    probes count which path ran). "Start" is the command itself executing.
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
// RSS: VmRSS of the spawned `next start` process from /proc plus its children (the spawn helper);
// the target is judged on the sum, the server alone is printed beside it.
// BENCH_GATE_DATABASE_URL=postgres://...: the same on PostgreSQL (a scratch database is created on
// that server and dropped at the end); the targets are judged on the embedded PGlite.
//
// Environment knobs (optional): BENCH_GATE_LEVELS (default "1,100,1000"), BENCH_GATE_PROBES
// (probes per level, default "40,40,20"), BENCH_GATE_PORT (default: a free port),
// BENCH_QUICK=1 (levels 1,100 with 10 probes each: a smoke run).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSseBlock } from '../lib/client/sse-parse';

const t00 = performance.now();
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.env.BENCH_QUICK === '1';
const LEVELS = (process.env.BENCH_GATE_LEVELS ?? (QUICK ? '1,100' : '1,100,1000')).split(',').map((s) => Number(s.trim()));
const PROBES = (process.env.BENCH_GATE_PROBES ?? (QUICK ? '10,10' : '40,40,20')).split(',').map((s) => Number(s.trim()));
const WARMUP_PROBES = 30; // JIT warm-up: with 5, the N = 1 level read 2-3 ms slower than N = 100
const FILL_CONCURRENCY = 20;
const STEP_TIMEOUT_MS = 30_000; // one request, or one awaited SSE event
const FILL_BUDGET_MS = 180_000; // starting the background runs of one level
const PROBE_BUDGET_MS = 90_000; // all probes of one level
const HARD_LIMIT_MS = 540_000; // the whole benchmark after the build check: past this it stops, cleans up, exits 1
const IDLE_WINDOW_MS = 3_000;
/** PostgreSQL instead of the embedded PGlite (an extra line of figures; the targets are judged on PGlite). */
const ADMIN_DATABASE_URL = process.env.BENCH_GATE_DATABASE_URL;
/** A scratch database created for this run on ADMIN_DATABASE_URL's server, dropped at the end. */
let DATABASE_URL: string | undefined;

async function createScratchDatabase(): Promise<void> {
  if (!ADMIN_DATABASE_URL) return;
  const { default: pg } = await import('pg');
  const name = `gatehouse_bench_${process.pid}_${Date.now()}`;
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  DATABASE_URL = url.toString();
}

async function dropScratchDatabase(): Promise<void> {
  if (!ADMIN_DATABASE_URL || !DATABASE_URL) return;
  const name = new URL(DATABASE_URL).pathname.slice(1);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    DATABASE_URL = undefined;
  } finally {
    await client.end();
  }
}

if (LEVELS.some((n) => !Number.isInteger(n) || n < 0)) throw new Error(`BENCH_GATE_LEVELS must be non-negative integers, got ${process.env.BENCH_GATE_LEVELS}`);

// ---------------------------------------------------------------------------------------------
// Clock: CLOCK_REALTIME in ms with sub-ms resolution
// ---------------------------------------------------------------------------------------------

let clockOffset = Date.now() - performance.now();
/** Re-anchors performance.now() on the edge of a Date.now() millisecond (busy-waits up to 1 ms). */
function calibrate(): void {
  const start = Date.now();
  let edge = start;
  while (edge === start) edge = Date.now();
  clockOffset = edge - performance.now();
}
const wallMs = (): number => clockOffset + performance.now();
calibrate();

// ---------------------------------------------------------------------------------------------
// Server process
// ---------------------------------------------------------------------------------------------

let server: ChildProcess | undefined;
let dataDir: string | undefined;
const serverLog: string[] = [];

function cleanup(): void {
  if (server?.pid !== undefined && server.exitCode === null && server.signalCode === null) {
    try {
      process.kill(-server.pid, 'SIGKILL'); // its process group (detached), so nothing it started survives
    } catch {
      server.kill('SIGKILL');
    }
  }
  server = undefined;
  if (dataDir) {
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
    dataDir = undefined;
  }
}
process.on('exit', cleanup);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the server and removing the data directory.`);
    cleanup();
    process.exit(130);
  });
}
/** Past HARD_LIMIT_MS (counted after the build check) the benchmark stops, cleans up and exits 1. */
function armHardLimit(): void {
  setTimeout(() => {
    console.error(`\n!!! The benchmark exceeded its hard limit of ${HARD_LIMIT_MS / 1000} s: stopping.`);
    printServerLog();
    cleanup();
    process.exit(1);
  }, HARD_LIMIT_MS).unref();
}

function printServerLog(): void {
  if (serverLog.length === 0) return;
  console.error('Last lines of the server output:');
  for (const line of serverLog.slice(-30)) console.error('  | ' + line);
}

function ensureBuild(): void {
  const buildId = path.join(ROOT, process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID');
  if (!existsSync(buildId)) {
    console.log('No production build (.next/BUILD_ID is missing): running `npm run build` first ...');
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', timeout: 600_000 });
    if (built.status !== 0 || !existsSync(buildId)) throw new Error('`npm run build` failed: cannot benchmark without a production build');
    return;
  }
  const builtAt = statSync(buildId).mtimeMs;
  const newer = newestSource(['lib', 'app', 'instrumentation.ts']);
  if (newer && newer.mtimeMs > builtAt) console.log(`Note: ${path.relative(ROOT, newer.file)} is newer than the build: the figures are for the built code (run \`npm run build\` to refresh).`);
}

function newestSource(entries: string[]): { file: string; mtimeMs: number } | undefined {
  let best: { file: string; mtimeMs: number } | undefined;
  const visit = (p: string, depth: number) => {
    if (depth > 8 || !existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (!name.startsWith('.') && name !== 'node_modules') visit(path.join(p, name), depth + 1);
    } else if (/\.(ts|tsx)$/.test(p) && !/\.test\.tsx?$/.test(p) && (!best || st.mtimeMs > best.mtimeMs)) {
      best = { file: p, mtimeMs: st.mtimeMs };
    }
  };
  for (const e of entries) visit(path.join(ROOT, e), 0);
  return best;
}

async function freePort(): Promise<number> {
  if (process.env.BENCH_GATE_PORT) return Number(process.env.BENCH_GATE_PORT);
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

function startServer(port: number, dir: string): ChildProcess {
  const child = spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      GATEHOUSE_DATA_DIR: dir,
      ...(DATABASE_URL ? { DATABASE_URL } : {}),
      GATEHOUSE_MODEL: 'offline',
      // The background relays must not expire while the benchmark runs (default 300 s).
      GATEHOUSE_APPROVAL_TIMEOUT_S: '3600',
      // Every request authenticates as the admin with this API token (a no-op where auth is off).
      GATEHOUSE_ADMIN_TOKEN: TOKEN,
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) serverLog.push(line);
    if (serverLog.length > 200) serverLog.splice(0, serverLog.length - 100);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

async function waitHealthy(base: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it was healthy`);
    const ok = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`the server was not healthy after ${timeoutMs / 1000} s`);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// /proc: RSS and CPU time of the server and its descendants
// ---------------------------------------------------------------------------------------------

function procTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length && out.length < 64; i++) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        for (const c of readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8').trim().split(/\s+/)) if (c) out.push(Number(c));
      } catch {
        // the task ended
      }
    }
  }
  return out;
}

function rssKb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function processName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 120);
  } catch {
    return '?';
  }
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** User + system CPU seconds of one process. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14 and 15)
  } catch {
    return 0;
  }
}

interface Memory {
  serverMb: number;
  /** Server plus its descendants (bash children of probes are short-lived; normally the same). */
  treeMb: number;
  processes: number;
}
function memory(pid: number): Memory {
  const tree = procTree(pid);
  const kb = tree.map(rssKb);
  return { serverMb: kb[0]! / 1024, treeMb: kb.reduce((a, b) => a + b, 0) / 1024, processes: tree.length };
}

// ---------------------------------------------------------------------------------------------
// SSE client (after e2e/support/sse.ts), stamping each event with its receipt time
// ---------------------------------------------------------------------------------------------

interface Received {
  id?: number;
  event: string;
  data: Record<string, unknown>;
  /** Client CLOCK_REALTIME (ms) when the chunk holding the event was read. */
  at: number;
}

class SseStream {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private chunkAt = 0;
  readonly seen: string[] = [];

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly controller: AbortController,
  ) {}

  private async next(): Promise<Received | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event = parseBlock(block, this.chunkAt);
        if (event) return event;
        continue;
      }
      const { done, value } = await this.reader.read();
      this.chunkAt = wallMs();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Reads until an event of this type (returned); throws when the stream ends or after timeoutMs. */
  async until(type: string, timeoutMs = STEP_TIMEOUT_MS): Promise<Received> {
    const timer = setTimeout(() => this.controller.abort(new Error(`no "${type}" event within ${timeoutMs / 1000} s`)), timeoutMs);
    try {
      for (;;) {
        const event = await this.next();
        if (!event) throw new Error(`stream ended before a "${type}" event; saw ${this.seen.join(', ') || 'nothing'}`);
        this.seen.push(event.event);
        if (event.event === 'error') throw new Error(`error event: ${JSON.stringify(event.data)}`);
        if (event.event === type) return event;
      }
    } catch (error) {
      const reason: unknown = this.controller.signal.reason;
      throw this.controller.signal.aborted && reason instanceof Error ? reason : error;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.controller.abort();
    this.reader.cancel().catch(() => undefined);
  }
}

function parseBlock(block: string, at: number): Received | undefined {
  const event = parseSseBlock(block);
  return event ? { ...event, at } : undefined;
}

let BASE = '';
const TOKEN = `bench-${randomBytes(24).toString('hex')}`;
const AUTH = { Authorization: `Bearer ${TOKEN}` };

async function startRun(content: string): Promise<SseStream> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`POST /api/chat: no response within ${STEP_TIMEOUT_MS / 1000} s`)), STEP_TIMEOUT_MS);
  try {
    const response = await fetch(`${BASE}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...AUTH },
      body: JSON.stringify({ messages: [{ role: 'user', content }] }),
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw new Error(`POST /api/chat: status ${response.status} ${(await response.text()).slice(0, 200)}`);
    return new SseStream(response.body.getReader(), controller);
  } catch (error) {
    const reason: unknown = controller.signal.reason;
    throw controller.signal.aborted && reason instanceof Error ? reason : error;
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Background runs and probes
// ---------------------------------------------------------------------------------------------

interface Paused {
  runId: string;
  sessionId: string;
  relayId: string;
}
const paused: Paused[] = [];
let backgroundStarted = 0;

interface FillReport {
  added: number;
  failed: number;
  ms: number;
  errors: string[];
  stoppedEarly?: string;
}

/** Starts background runs, FILL_CONCURRENCY at a time, until `target` are paused (bounded). */
async function fill(target: number): Promise<FillReport> {
  const t0 = performance.now();
  const deadline = t0 + FILL_BUDGET_MS;
  let toStart = Math.max(0, target - paused.length);
  let added = 0;
  let failed = 0;
  let consecutiveFailures = 0;
  let stoppedEarly: string | undefined;
  const errors: string[] = [];
  const worker = async () => {
    while (toStart > 0 && !stoppedEarly) {
      if (performance.now() > deadline) {
        stoppedEarly = `fill budget of ${FILL_BUDGET_MS / 1000} s used up`;
        break;
      }
      toStart--;
      const n = ++backgroundStarted;
      let stream: SseStream | undefined;
      try {
        stream = await startRun(`$ echo ${n}`);
        const connected = await stream.until('connected');
        const relay = (await stream.until('relay')).data.relay as { id: string };
        paused.push({ runId: String(connected.data.runId), sessionId: String(connected.data.sessionId), relayId: relay.id });
        added++;
        consecutiveFailures = 0;
      } catch (error) {
        failed++;
        if (errors.length < 5) errors.push((error as Error).message);
        if (++consecutiveFailures >= 3 * FILL_CONCURRENCY) stoppedEarly = `${consecutiveFailures} failures in a row`;
      } finally {
        stream?.close();
      }
    }
  };
  await Promise.all(Array.from({ length: FILL_CONCURRENCY }, worker));
  return { added, failed, ms: performance.now() - t0, errors, ...(stoppedEarly ? { stoppedEarly } : {}) };
}

interface Probe {
  runId: string;
  relayId: string;
  /** Client clock (ms): POST /api/chat sent, relay received, decision POST sent, bash running. */
  tPost: number;
  tRelay: number;
  tDecision: number;
  tStarted: number;
  /** tool_call and relay came out of the same read of the stream. */
  sameRead: boolean;
  /** receipt(relay) - relay.createdAt */
  callToRelay: number;
  /** receipt(relay) - receipt(tool_call) */
  toolCallToRelay: number;
  /** receipt(relay) - POST /api/chat sent */
  postToRelay: number;
  /** bash start (date +%s%N) - decision POST sent */
  decisionToStart: number;
  /** decision POST answered - sent */
  decisionResponse: number;
  /** receipt(tool_result) - bash start */
  startToResult: number;
}

/** How the probes' bash commands were started (tool_result metadata.spawnedVia): 'helper' or 'direct'. */
const spawnedVia = new Map<string, number>();

async function probe(): Promise<Probe> {
  calibrate();
  const tPost = wallMs();
  const stream = await startRun('$ date +%s%N');
  try {
    const connected = await stream.until('connected');
    const call = await stream.until('tool_call');
    const relayEvent = await stream.until('relay');
    const decision = call.data.decision as { action?: string } | undefined;
    if (decision?.action !== 'ask') throw new Error(`the probe's bash call was decided "${decision?.action}", expected "ask"`);
    const relay = relayEvent.data.relay as { id: string; createdAt: number };
    const t0 = wallMs();
    const answered = await fetch(`${BASE}/api/chat/relay/${relay.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...AUTH },
      body: JSON.stringify({ sessionId: connected.data.sessionId, response: { approved: true } }),
      signal: AbortSignal.timeout(STEP_TIMEOUT_MS),
    });
    const tAnswered = wallMs();
    if (!answered.ok) throw new Error(`POST /api/chat/relay: status ${answered.status} ${(await answered.text()).slice(0, 200)}`);
    const result = await stream.until('tool_result');
    const output = String(result.data.output ?? '');
    const ns = /(\d{18,})/.exec(output)?.[1];
    if (!ns || result.data.isError === true) throw new Error(`unexpected tool_result: ${output.slice(0, 200)}`);
    const startedAt = Number(BigInt(ns) / 1000n) / 1000;
    const via = String((result.data.metadata as { spawnedVia?: string } | undefined)?.spawnedVia ?? 'unknown');
    spawnedVia.set(via, (spawnedVia.get(via) ?? 0) + 1);
    await stream.until('done');
    return {
      runId: String(connected.data.runId),
      relayId: relay.id,
      tPost,
      tRelay: relayEvent.at,
      tDecision: t0,
      tStarted: startedAt,
      sameRead: call.at === relayEvent.at,
      callToRelay: relayEvent.at - relay.createdAt,
      toolCallToRelay: relayEvent.at - call.at,
      postToRelay: relayEvent.at - tPost,
      decisionToStart: startedAt - t0,
      decisionResponse: tAnswered - t0,
      startToResult: result.at - startedAt,
    };
  } finally {
    stream.close();
  }
}

interface ProbeSet {
  probes: Probe[];
  failed: number;
  errors: string[];
  stoppedEarly?: string;
}

async function probes(count: number): Promise<ProbeSet> {
  const deadline = performance.now() + PROBE_BUDGET_MS;
  const out: Probe[] = [];
  const errors: string[] = [];
  let failed = 0;
  let stoppedEarly: string | undefined;
  for (let i = 0; i < count; i++) {
    if (performance.now() > deadline) {
      stoppedEarly = `probe budget of ${PROBE_BUDGET_MS / 1000} s used up after ${i} probes`;
      break;
    }
    try {
      out.push(await probe());
    } catch (error) {
      failed++;
      if (errors.length < 5) errors.push((error as Error).message);
      if (failed >= 5 && out.length === 0) {
        stoppedEarly = 'the first 5 probes failed';
        break;
      }
    }
  }
  return { probes: out, failed, errors, ...(stoppedEarly ? { stoppedEarly } : {}) };
}

/** How long spawning `/bin/bash -c 'date +%s%N'` takes from this (client) process, to the command's start. */
async function spawnBaseline(count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    calibrate();
    const t0 = wallMs();
    const text = await new Promise<string>((resolve, reject) => {
      const child = spawn('/bin/bash', ['-c', 'date +%s%N'], {
        cwd: os.tmpdir(),
        // As the bash tool does (lib/agent/tools/bash.ts); the cast only drops Next's required NODE_ENV.
        env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8', TERM: 'dumb' } as Record<string, string> as NodeJS.ProcessEnv,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let s = '';
      child.stdout.on('data', (d: Buffer) => (s += d.toString()));
      child.once('error', reject);
      child.once('close', () => resolve(s));
    });
    const ns = /(\d{18,})/.exec(text)?.[1];
    if (ns) out.push(Number(BigInt(ns) / 1000n) / 1000 - t0);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Statistics and printing
// ---------------------------------------------------------------------------------------------

function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
const ms = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : '-');
const pair = (xs: number[]): string => `${ms(pct(xs, 50))} / ${ms(pct(xs, 99))}`;
const mb = (x: number): string => x.toFixed(1);

function table(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(head));
  console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

interface LevelResult {
  n: number;
  pausedNow: number;
  fill: FillReport;
  idleCpuPct: number;
  memPaused: Memory;
  memAfter: Memory;
  set: ProbeSet;
}

// ---------------------------------------------------------------------------------------------
// Where the time goes: server timestamps from the database, read after the server stopped
// ---------------------------------------------------------------------------------------------

interface Stage {
  label: string;
  of: (p: Probe, s: ServerStamps) => number | undefined;
}

interface ServerStamps {
  runCreated?: number;
  gateDecided?: number; // relays.created_at = relay.createdAt
  toolCallStored?: number;
  relayStored?: number;
  decided?: number; // relays.decided_at (broker.resolve, before the settle UPDATE)
  resolvedStored?: number;
  claimed?: number; // tool_executions.claimed_at
}

const STAGES: Stage[] = [
  { label: 'POST /api/chat sent -> run row created (HTTP, route, policy SELECT + compile)', of: (p, s) => d(p.tPost, s.runCreated) },
  { label: 'run row created -> gate decided (agent set-up, model step, checkpoint, grants, gate)', of: (_, s) => d(s.runCreated, s.gateDecided) },
  { label: 'gate decided -> tool_call event stored (relay INSERT; audit + event append: one statement)', of: (_, s) => d(s.gateDecided, s.toolCallStored) },
  { label: 'tool_call stored -> relay event stored (run status + event append: one statement)', of: (_, s) => d(s.toolCallStored, s.relayStored) },
  { label: 'relay event stored -> relay received by the client (SSE)', of: (p, s) => d(s.relayStored, p.tRelay) },
  { label: 'decision POST sent -> decision taken (HTTP, route, relay SELECT)', of: (p, s) => d(p.tDecision, s.decided) },
  { label: 'decision taken -> execution claim (settle UPDATE, wake, relay_resolved statement queued first)', of: (_, s) => d(s.decided, s.claimed) },
  { label: 'execution claim -> bash running (claim INSERT, spawn helper: IPC, fork/exec bash, exec date)', of: (p, s) => d(s.claimed, p.tStarted) },
];
const d = (a: number | undefined, b: number | undefined): number | undefined => (a === undefined || b === undefined ? undefined : b - a);

/** A pg client with PGlite's `query` / `close` shape. */
async function openPg(url: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    query: async <T,>(text: string, values: unknown[]) => ({ rows: (await client.query(text, values)).rows as T[] }),
    close: () => client.end(),
  };
}

/** Opens the (stopped) server's database directly and reads the probe runs' timestamps. */
async function serverStamps(dir: string, runIds: string[]): Promise<Map<string, ServerStamps>> {
  const db = DATABASE_URL ? await openPg(DATABASE_URL) : await (await import('@electric-sql/pglite')).PGlite.create(path.join(dir, 'db', 'pgdata'));
  try {
    const out = new Map<string, ServerStamps>(runIds.map((id) => [id, {}]));
    const get = (id: string) => out.get(id);
    type Row = { run_id: string; t: number | null; t2?: number | null; type?: string };
    const epochMs = (col: string) => `extract(epoch from ${col})::float8 * 1000`;
    for (const r of (await db.query<Row>(`select id as run_id, ${epochMs('created_at')} as t from runs where id = any($1)`, [runIds])).rows) {
      const s = get(r.run_id);
      if (s && r.t !== null) s.runCreated = r.t;
    }
    for (const r of (await db.query<Row>(`select run_id, ${epochMs('created_at')} as t, ${epochMs('decided_at')} as t2 from relays where run_id = any($1)`, [runIds])).rows) {
      const s = get(r.run_id);
      if (!s) continue;
      if (r.t !== null) s.gateDecided = r.t;
      if (r.t2 !== null && r.t2 !== undefined) s.decided = r.t2;
    }
    for (const r of (await db.query<Row>(`select run_id, ${epochMs('claimed_at')} as t from tool_executions where run_id = any($1)`, [runIds])).rows) {
      const s = get(r.run_id);
      if (s && r.t !== null) s.claimed = r.t;
    }
    for (const r of (await db.query<Row>(`select run_id, type, ${epochMs('created_at')} as t from events where run_id = any($1) and type in ('tool_call', 'relay', 'relay_resolved')`, [runIds])).rows) {
      const s = get(r.run_id);
      if (!s || r.t === null) continue;
      if (r.type === 'tool_call') s.toolCallStored = r.t;
      else if (r.type === 'relay') s.relayStored = r.t;
      else s.resolvedStored = r.t;
    }
    return out;
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------

async function stopServer(child: ChildProcess): Promise<void> {
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  const exited = new Promise<void>((r) => (gone() ? r() : child.once('exit', () => r())));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal);
    }
  };
  if (!gone()) kill('SIGTERM');
  const timer = setTimeout(() => kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

async function boot(port: number, dir: string): Promise<{ child: ChildProcess; ms: number }> {
  const t0 = performance.now();
  const child = startServer(port, dir);
  server = child;
  await waitHealthy(BASE, child, 60_000);
  return { child, ms: performance.now() - t0 };
}

async function main(): Promise<number> {
  console.log('Gatehouse gate benchmark: tool call -> relay on the SSE stream, decision -> tool start');
  console.log(`  one \`next start\` process (production build), ${ADMIN_DATABASE_URL ? 'PostgreSQL (a scratch database on BENCH_GATE_DATABASE_URL\'s server)' : 'embedded PGlite in a fresh temp dir'}, offline model, 127.0.0.1`);
  console.log(`  node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? '?'}), levels ${LEVELS.join(' / ')} paused runs, probes ${PROBES.join(' / ')}`);
  console.log('  Method (details in the file header and bench/README.md):');
  console.log('    call->relay     = receipt of `relay` (client) - relay.createdAt (server Date.now() right after the gate decided;');
  console.log('                      whole ms, so 0-1 ms high): relay INSERT, audit INSERT, run UPDATE, event-log appends, SSE, TCP');
  console.log('    decision->start = POST /api/chat/relay/:id sent -> `date +%s%N` running in the approved bash call (same machine clock):');
  console.log('                      HTTP, session check, settle UPDATE, wake, tool_executions claim INSERT, fork/exec of /bin/bash');
  console.log('    POST->relay     = POST /api/chat sent -> `relay` received (run creation, model step, checkpoint, gate: all of it)');
  console.log('    Background runs (`$ echo <i>`) are started 20 at a time, left paused, their streams closed; probes run one at a time');
  console.log('    on top (N + 1 paused while a probe waits). Client clock: performance.now() anchored on a Date.now() ms edge.');
  console.log('    The server boots twice on the same fresh data dir: the first boot creates the database (initdb, migrations, seed),');
  console.log('    the measured server is the second boot, as in production after the first start.');
  console.log('');

  ensureBuild();
  armHardLimit();
  const port = await freePort();
  BASE = `http://127.0.0.1:${port}`;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-gate-'));
  await createScratchDatabase();

  const first = await boot(port, dataDir);
  const memFirst = memory(first.child.pid!);
  await stopServer(first.child);
  const second = await boot(port, dataDir);
  const child = second.child;
  const pid = child.pid!;
  let stopping = false;
  child.once('exit', (code, signal) => {
    if (!stopping) console.error(`\n!!! The server exited during the benchmark (${code ?? signal}).`);
  });
  const tree = procTree(pid);
  const memBoot = memory(pid);
  console.log(`First boot (creates the database): ready in ${(first.ms / 1000).toFixed(1)} s, RSS ${mb(memFirst.serverMb)} MB`);
  console.log(`Measured server: pid ${pid} (${processName(pid)}), ready in ${(second.ms / 1000).toFixed(1)} s, RSS ${mb(memBoot.serverMb)} MB; ${tree.length === 1 ? 'no child processes (the server runs in this process)' : `child processes: ${tree.slice(1).map((p) => `${p} (${processName(p)})`).join(', ')}`}`);

  const baseline = await spawnBaseline(20);
  console.log(`Spawn baseline in this (small) client process, spawn('/bin/bash', ['-c', 'date +%s%N']) -> date running: p50 ${ms(pct(baseline, 50))} ms, p99 ${ms(pct(baseline, 99))} ms`);

  const warm = await probes(WARMUP_PROBES);
  console.log(`Warm-up: ${warm.probes.length} probe runs${warm.failed ? `, ${warm.failed} failed (${warm.errors[0]})` : ''} (not counted)`);
  if (warm.probes.length === 0) throw new Error(`no probe run succeeded during warm-up: ${warm.errors.join('; ')}`);
  console.log('');

  const results: LevelResult[] = [];
  for (const [i, n] of LEVELS.entries()) {
    const count = PROBES[i] ?? PROBES.at(-1) ?? 20;
    const before = paused.length;
    process.stdout.write(`N = ${n.toLocaleString('en-US')}: starting ${Math.max(0, n - before)} background runs ... `);
    const filled = await fill(n);
    const rate = filled.added / (filled.ms / 1000);
    console.log(`${paused.length} paused (${(filled.ms / 1000).toFixed(1)} s, ${filled.added > 0 ? rate.toFixed(0) : '-'} runs/s${filled.failed ? `, ${filled.failed} failed` : ''})`);
    if (filled.stoppedEarly) console.log(`  !!! stopped early: ${filled.stoppedEarly}`);
    for (const e of filled.errors) console.log(`  ! ${e}`);
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('the server is gone');

    const memPaused = memory(pid);
    const cpu0 = cpuSeconds(pid);
    await sleep(IDLE_WINDOW_MS);
    const idleCpuPct = ((cpuSeconds(pid) - cpu0) / (IDLE_WINDOW_MS / 1000)) * 100;
    process.stdout.write(`  RSS ${mb(memPaused.serverMb)} MB with ${paused.length} paused; idle server CPU ${idleCpuPct.toFixed(0)}%; ${count} probes ... `);
    const tProbes = performance.now();
    const set = await probes(count);
    console.log(`${set.probes.length} done in ${((performance.now() - tProbes) / 1000).toFixed(1)} s${set.failed ? `, ${set.failed} failed` : ''}`);
    if (set.stoppedEarly) console.log(`  !!! stopped early: ${set.stoppedEarly}`);
    for (const e of set.errors) console.log(`  ! ${e}`);
    const memAfter = memory(pid);
    results.push({ n, pausedNow: paused.length, fill: filled, idleCpuPct, memPaused, memAfter, set });
  }
  stopping = true;
  await stopServer(child);

  // Results -------------------------------------------------------------------------------------
  const label = (r: LevelResult) => (r.pausedNow === r.n ? r.n.toLocaleString('en-US') : `${r.pausedNow.toLocaleString('en-US')} (of ${r.n.toLocaleString('en-US')})`);
  console.log('');
  console.log('Latency in ms, p50 / p99 over the probes (p99 of 20-50 probes is the slowest probe or next to it):');
  table(
    ['N paused', 'probes', 'call->relay', 'decision->start', 'POST->relay', 'decision POST answered', 'bash start->tool_result'],
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
  console.log(`  probe commands started by: ${[...spawnedVia].map(([k, v]) => `${k} ${v}`).join(', ')} (warm-up included; the first calls spawn directly while the helper starts).`);
  console.log(`  load average of the machine (1 / 5 / 15 min) at the end: ${os.loadavg().map((x) => x.toFixed(1)).join(' / ')} on ${os.cpus().length} CPUs.`);
  const same = all.filter((p) => p.sameRead).length;
  console.log(`  tool_call and relay arrived in the same read of the stream in ${same} of ${all.length} probes${same === all.length ? ' (so receipt(relay) - receipt(tool_call) says nothing: both are flushed when the stream\'s first replay of the event log ends)' : ''}.`);

  console.log('');
  console.log('Server process:');
  table(
    ['N paused', 'start N (s)', 'runs/s', 'RSS MB, N paused', 'RSS MB after probes', 'idle CPU %'],
    results.map((r) => [
      label(r),
      (r.fill.ms / 1000).toFixed(1),
      r.fill.added > 0 ? (r.fill.added / (r.fill.ms / 1000)).toFixed(0) : '-',
      mb(r.memPaused.serverMb) + (r.memPaused.processes > 1 ? ` (+children ${mb(r.memPaused.treeMb - r.memPaused.serverMb)})` : ''),
      mb(r.memAfter.serverMb),
      r.idleCpuPct.toFixed(0),
    ]),
  );
  console.log(`  (RSS after boot: ${mb(memBoot.serverMb)} MB, first boot ${mb(memFirst.serverMb)} MB; idle CPU = server CPU time over ${IDLE_WINDOW_MS / 1000} s with only the N runs paused)`);

  // Breakdown from the database -------------------------------------------------------------------
  try {
    const stamps = await serverStamps(dataDir, all.map((p) => p.runId));
    console.log('');
    console.log('Where the time goes: mean ms per stage, server stamps read from the database after the run (whole ms, so each');
    console.log('stage is +-1 ms; rows add up to POST->relay and to decision->start):');
    table(
      ['stage', ...results.map((r) => `N=${r.n.toLocaleString('en-US')}`)],
      STAGES.map((stage) => [
        stage.label,
        ...results.map((r) => {
          const xs = r.set.probes.flatMap((p) => {
            const s = stamps.get(p.runId);
            const v = s ? stage.of(p, s) : undefined;
            return v === undefined ? [] : [v];
          });
          return xs.length ? ms(xs.reduce((a, b) => a + b, 0) / xs.length) : '-';
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
  const c100 = r100 ? pct(r100.set.probes.map((x) => x.callToRelay), 50) : NaN;
  const d100 = r100 ? pct(r100.set.probes.map((x) => x.decisionToStart), 50) : NaN;
  const rss1000 = r1000 ? Math.max(r1000.memPaused.treeMb, r1000.memAfter.treeMb) : NaN;
  const full1000 = r1000 ? r1000.pausedNow >= 1000 : false;
  console.log('');
  console.log('Summary');
  console.log(`  ${verdict(r100 ? c100 <= 5 : undefined)}  call->relay p50 at 100 paused runs: ${ms(c100)} ms (target <= 5 ms)`);
  console.log(`  ${verdict(r100 ? d100 <= 5 : undefined)}  decision->start p50 at 100 paused runs: ${ms(d100)} ms (target <= 5 ms)`);
  const server1000 = r1000 ? Math.max(r1000.memPaused.serverMb, r1000.memAfter.serverMb) : NaN;
  console.log(`  ${verdict(r1000 ? full1000 && rss1000 < 300 : undefined)}  RSS with 1,000 paused runs: ${r1000 ? `${mb(rss1000)} MB${full1000 ? '' : ` (only ${r1000.pausedNow} paused)`}` : 'not measured'} (target < 300 MB; server process and its children, i.e. the spawn helper; highest of the two readings; the server process alone: ${mb(server1000)} MB)`);
  console.log(`\n(total run time ${((performance.now() - t00) / 1000).toFixed(1)} s)`);
  return results.every((r) => r.set.probes.length > 0 && !r.fill.stoppedEarly) ? 0 : 1;
}

const dropDatabase = () =>
  dropScratchDatabase().catch((error: unknown) => console.error(`(could not drop the scratch database ${DATABASE_URL}: ${(error as Error).message})`));

main()
  .then(async (code) => {
    cleanup();
    await dropDatabase();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(`\n!!! The benchmark failed: ${(error as Error)?.message ?? String(error)}`);
    printServerLog();
    cleanup();
    await dropDatabase();
    process.exit(1);
  });
