// The server processes the benchmark runs (scripts/serve.sh, as `npm start`): build check, free ports, start (own process
// group), health wait, stop, and a cleanup that kills every server it started and removes every
// temp dir it made, also on failure, Ctrl-C or the hard limit.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { HARD_LIMIT_MS, ROOT, TOKEN } from './config';
import { closeDecisionClients } from './sse';

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();
const serverLog: string[] = [];

/** Removed by cleanup(), also when the benchmark fails. */
export function removeAtExit(dir: string): string {
  tempDirs.add(dir);
  return dir;
}

export function cleanup(): void {
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL'); // its process group (detached), so nothing it started survives
      } catch {
        child.kill('SIGKILL');
      }
    }
  }
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  tempDirs.clear();
}

/**
 * Ctrl-C / SIGTERM: `message`, cleanup, then `finish` (e.g. dropping a scratch database, bounded
 * by the caller) and exit 130. Cleanup also runs at any exit.
 */
export function onSignals(message: string, finish?: () => Promise<void>): void {
  process.on('exit', cleanup);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      console.error(`\n${signal}: ${message}`);
      cleanup();
      if (!finish) process.exit(130);
      void finish().finally(() => process.exit(130));
    });
  }
}

/** Past HARD_LIMIT_MS (counted after the build check) the benchmark stops, cleans up and exits 1. */
export function armHardLimit(finish?: () => Promise<void>): void {
  setTimeout(() => {
    console.error(`\n!!! The benchmark exceeded its hard limit of ${HARD_LIMIT_MS / 1000} s: stopping.`);
    printServerLog();
    cleanup();
    if (!finish) process.exit(1);
    void finish().finally(() => process.exit(1));
  }, HARD_LIMIT_MS).unref();
}

export function printServerLog(): void {
  if (serverLog.length === 0) return;
  console.error('Last lines of the server output:');
  for (const line of serverLog.slice(-30)) console.error('  | ' + line);
}

export function ensureBuild(): void {
  const buildId = path.join(ROOT, process.env.NEXT_DIST_DIR || '.next', 'BUILD_ID');
  if (!existsSync(buildId)) {
    console.log('No production build (.next/BUILD_ID is missing): running `npm run build` first ...');
    const built = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', timeout: 600_000 });
    if (built.status !== 0 || !existsSync(buildId))
      throw new Error('`npm run build` failed: cannot benchmark without a production build');
    return;
  }
  const builtAt = statSync(buildId).mtimeMs;
  const newer = newestSource(['lib', 'app', 'instrumentation.ts']);
  if (newer && newer.mtimeMs > builtAt)
    console.log(
      `Note: ${path.relative(ROOT, newer.file)} is newer than the build: the figures are for the built code (run \`npm run build\` to refresh).`,
    );
}

function newestSource(entries: string[]): { file: string; mtimeMs: number } | undefined {
  let best: { file: string; mtimeMs: number } | undefined;
  const visit = (p: string, depth: number) => {
    if (depth > 8 || !existsSync(p)) return;
    const st = statSync(p);
    if (st.isDirectory()) {
      for (const name of readdirSync(p))
        if (!name.startsWith('.') && name !== 'node_modules') visit(path.join(p, name), depth + 1);
    } else if (/\.(ts|tsx)$/.test(p) && !/\.test\.tsx?$/.test(p) && (!best || st.mtimeMs > best.mtimeMs)) {
      best = { file: p, mtimeMs: st.mtimeMs };
    }
  };
  for (const e of entries) visit(path.join(ROOT, e), 0);
  return best;
}

/** BENCH_GATE_PORT (+ offset for a second server), else a free port on 127.0.0.1. */
export async function freePort(offset = 0): Promise<number> {
  if (process.env.BENCH_GATE_PORT) return Number(process.env.BENCH_GATE_PORT) + offset;
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

/**
 * The server as `npm start` runs it (scripts/serve.sh: node flags and malloc setting; it execs
 * node, so the child's pid is the server's) on 127.0.0.1:port with the offline model, the benchmark's admin token and relays
 * that do not expire during the run; `env` adds to (or overrides) that. `tag` prefixes its log lines.
 */
export function startServer(port: number, dir: string, env: Record<string, string> = {}, tag = ''): ChildProcess {
  const child = spawn('/bin/sh', ['scripts/serve.sh', '--hostname', '127.0.0.1', '--port', String(port)], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE: process.env.BENCH_SERVER_NODE ?? process.execPath,
      NODE_ENV: 'production',
      GATEHOUSE_DATA_DIR: dir,
      GATEHOUSE_MODEL: 'offline',
      // The background relays must not expire while the benchmark runs (default 300 s).
      GATEHOUSE_APPROVAL_TIMEOUT_S: '3600',
      // Every request authenticates as the admin with this API token (a no-op where auth is off).
      GATEHOUSE_ADMIN_TOKEN: TOKEN,
      // One user (the admin) holds every background run: 1,000 and more paused at once.
      GATEHOUSE_MAX_RUNS_PER_USER: '100000',
      GATEHOUSE_MAX_WAITING_PER_USER: '100000',
      NEXT_TELEMETRY_DISABLED: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  const keep = (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) serverLog.push(tag + line);
    if (serverLog.length > 200) serverLog.splice(0, serverLog.length - 100);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return child;
}

export async function waitHealthy(base: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before it was healthy`);
    const ok = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`the server was not healthy after ${timeoutMs / 1000} s`);
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** SIGTERM to its process group, SIGKILL after 10 s; resolves when it exited. */
export async function stopServer(child: ChildProcess): Promise<void> {
  closeDecisionClients(); // kept-alive connections would hold up its graceful shutdown
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
  children.delete(child);
}

/** Starts a server and waits until /api/health answers; `ms` is the time to healthy. */
export async function boot(
  base: string,
  port: number,
  dir: string,
  env: Record<string, string> = {},
  tag = '',
): Promise<{ child: ChildProcess; ms: number }> {
  const t0 = performance.now();
  const child = startServer(port, dir, env, tag);
  await waitHealthy(base, child, 60_000);
  return { child, ms: performance.now() - t0 };
}
