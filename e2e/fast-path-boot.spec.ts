// The decision's fast path (scripts/server.mjs, lib/server/routes/fast-routes.ts) after a failed first
// start: a server whose runtime could not start at boot (its data directory held by another
// server) boots it on a later request, and from then on decides relays on the fast path, not
// through Next's router. The fast path's answers are told apart by Next's `Vary: rsc, ...` header,
// which only Next's route responses carry (docs/decisions/0011).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminAuthHeaders, E2E_ADMIN_TOKEN } from './support/auth';
import { seededDataDir } from './support/data-dir';
import { startWaitingRun } from './support/runs-api';

const portA = Number(process.env.E2E_FASTBOOT_PORT_A ?? 3198);
const portB = Number(process.env.E2E_FASTBOOT_PORT_B ?? 3199);

/** Gatehouse's own server (scripts/serve.sh, as `npm start` runs it) on `port` and `dataDir`; its output is collected. */
function serve(port: number, dataDir: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn('/bin/sh', ['scripts/serve.sh', '--hostname', '127.0.0.1', '--port', String(port)], {
    env: {
      ...process.env,
      GATEHOUSE_DATA_DIR: dataDir,
      GATEHOUSE_MODEL: 'offline',
      GATEHOUSE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      NEXT_TELEMETRY_DISABLED: '1',
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

function decide(port: number, relayId: string, sessionId: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}/api/chat/relay/${relayId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...adminAuthHeaders() },
    body: JSON.stringify({ sessionId, response: { approved: true } }),
  });
}

test('a server whose first start failed decides relays on the fast path once its runtime is up', async () => {
  test.setTimeout(120_000);
  const dataDir = await seededDataDir('gatehouse-fastboot-');
  const holder = serve(portA, dataDir);
  let late: ReturnType<typeof serve> | undefined;
  try {
    await until('the first server', async () =>
      (await fetch(`http://127.0.0.1:${portA}/api/health`)).ok ? true : undefined,
    );
    // The second server's first start fails: the embedded database is held by the first.
    late = serve(portB, dataDir);
    await until('the refused start', async () =>
      /startup failed:.*in use by process/.test(late!.output()) ? true : undefined,
    );
    const refused = await decide(portB, 'no-such-relay', 'no-session');
    expect(refused.status).toBeGreaterThanOrEqual(500);

    // Once the holder is gone, the next request starts the runtime, and decisions take the fast path.
    await kill(holder.child);
    await until('the late start', async () =>
      (await fetch(`http://127.0.0.1:${portB}/api/health`)).ok ? true : undefined,
    );
    const base = `http://127.0.0.1:${portB}`;
    const { runId, sessionId, relayId, events } = await startWaitingRun(base, '$ echo fast >> fast.log');
    // Next's router would answer this route too; only its answers carry `Vary: rsc, ...`.
    const byNext = await fetch(`${base}/api/runs/${runId}`, { headers: adminAuthHeaders() });
    expect(byNext.status).toBe(200);
    expect(byNext.headers.get('vary') ?? '').toContain('rsc');

    const decided = await decide(portB, relayId, sessionId);
    expect(decided.status).toBe(200);
    expect(decided.headers.get('vary')).toBeNull();
    expect((await events.until('done')).data).toBeDefined();
    expect(readFileSync(path.join(dataDir, 'workspace', 'fast.log'), 'utf8')).toBe('fast\n');
  } finally {
    await kill(holder.child);
    if (late) await kill(late.child);
  }
});
