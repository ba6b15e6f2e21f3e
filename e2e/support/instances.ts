// Production servers started by a spec itself (several instances on one PostgreSQL): a fresh
// database, `next start` with the suite's admin token, waiting until healthy, and a hard stop.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { E2E_ADMIN_TOKEN } from './auth';

/** A fresh database at `target` (its name must contain "e2e"), or why there is none. */
export function freshDatabase(target: string): { url?: string; reason?: string } {
  const result = spawnSync(process.execPath, ['scripts/ensure-postgres.mjs'], {
    env: { ...process.env, E2E_DATABASE_URL: target },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status === 0) return { url: result.stdout.trim().split('\n').at(-1) };
  return { reason: `${result.stderr ?? ''}${result.error?.message ?? ''}`.trim() || `exit ${result.status}` };
}

export function startServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      env: {
        ...process.env,
        ...env,
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next',
        GATEHOUSE_MODEL: 'offline',
        GATEHOUSE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
        GATEHOUSE_SSE_HEARTBEAT_MS: '1000',
        // As the suite's own servers (playwright.config.ts): one admin starts most runs.
        GATEHOUSE_MAX_RUNS_PER_USER: '100000',
        GATEHOUSE_MAX_WAITING_PER_USER: '100000',
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: 'ignore',
    },
  );
}

export async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server for ${base} exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
