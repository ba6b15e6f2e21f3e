// Two production servers on one PostgreSQL (docs/DEPLOY.md): a run started on A pauses on a relay;
// its events are streamed through B, the decision is posted to B, and the run finishes on A, which
// holds its lease. B's stream sees every event in order, ending with `done`; the tool ran once.
// Needs PostgreSQL (a fresh database from scripts/ensure-postgres.mjs): skipped without it locally,
// required under CI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminAuthHeaders, E2E_ADMIN_TOKEN } from './support/auth';
import { SseReader, type SseEvent } from './support/sse';

const portA = Number(process.env.E2E_MULTI_PORT_A ?? 3196);
const portB = Number(process.env.E2E_MULTI_PORT_B ?? 3197);
const baseA = `http://127.0.0.1:${portA}`;
const baseB = `http://127.0.0.1:${portB}`;

/** A fresh database named after A's port (so parallel runs on other ports never share it), or why not. */
function freshDatabase(): { url?: string; reason?: string } {
  const target = process.env.E2E_MULTI_DATABASE_URL || `postgres://gatehouse:gatehouse@127.0.0.1:5432/gatehouse_e2e_multi_${portA}`;
  const result = spawnSync(process.execPath, ['scripts/ensure-postgres.mjs'], { env: { ...process.env, E2E_DATABASE_URL: target }, encoding: 'utf8', timeout: 60_000 });
  if (result.status === 0) return { url: result.stdout.trim().split('\n').at(-1) };
  return { reason: `${result.stderr ?? ''}${result.error?.message ?? ''}`.trim() || `exit ${result.status}` };
}

function startServer(port: number, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1', '--port', String(port)], {
    env: {
      ...process.env,
      ...env,
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next',
      GATEHOUSE_MODEL: 'offline',
      GATEHOUSE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      GATEHOUSE_SSE_HEARTBEAT_MS: '1000',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: 'ignore',
  });
}

async function waitHealthy(base: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server for ${base} exited with ${child.exitCode}`);
    const ok = await fetch(`${base}/api/health`).then((r) => r.ok).catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

test('a run executing on A is streamed and approved through B, and finishes on A with the tool run once', async () => {
  test.setTimeout(120_000);
  const database = freshDatabase();
  if (!database.url) {
    if (process.env.CI) throw new Error(`PostgreSQL is required under CI: ${database.reason}`);
    test.skip(true, `PostgreSQL is not available, so two instances cannot share a database: ${database.reason}`);
    return;
  }
  // One workspace for both (as a shared volume would be), separate data directories.
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-multi-ws-'));
  const common = { DATABASE_URL: database.url, GATEHOUSE_WORKSPACE: workspace };
  let a: ChildProcess | undefined;
  let b: ChildProcess | undefined;
  try {
    a = startServer(portA, { ...common, GATEHOUSE_INSTANCE_ID: 'e2e-a', GATEHOUSE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'gatehouse-multi-a-')) });
    b = startServer(portB, { ...common, GATEHOUSE_INSTANCE_ID: 'e2e-b', GATEHOUSE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'gatehouse-multi-b-')) });
    await Promise.all([waitHealthy(baseA, a), waitHealthy(baseB, b)]);

    const word = `multi-${randomBytes(4).toString('hex')}`;
    const chat = await SseReader.open(`${baseA}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: `$ echo ${word}` }] }),
    });
    expect(chat.response.status).toBe(200);
    const onA: SseEvent[] = [];
    const { runId, sessionId } = (await chat.events.until('connected', onA)).data as { runId: string; sessionId: string };
    const relay = (await chat.events.until('relay', onA)).data.relay as { id: string };

    // B does not execute the run: it follows A's through the database.
    const followed = await SseReader.open(`${baseB}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } });
    expect(followed.response.status).toBe(200);
    const onB: SseEvent[] = [];
    await followed.events.until('relay', onB);
    const live = async (base: string) => (await (await fetch(`${base}/api/runs/${runId}`, { headers: adminAuthHeaders() })).json()) as { live: boolean; run: { status: string } };
    expect(await live(baseA)).toMatchObject({ live: true, run: { status: 'waiting' } });
    expect(await live(baseB)).toMatchObject({ live: false, run: { status: 'waiting' } });

    const decided = await fetch(`${baseB}/api/chat/relay/${relay.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...adminAuthHeaders() },
      body: JSON.stringify({ sessionId, response: { approved: true } }),
    });
    expect(decided.status).toBe(200);

    // B's stream closes itself at `done`, like a local run's.
    onB.push(...(await followed.events.rest()));
    expect(onB.map((e) => e.event)).toEqual(['tool_call', 'relay', 'relay_resolved', 'tool_result', 'text', 'done']);
    expect(onB.map((e) => e.id)).toEqual(onB.map((_, i) => i + 1));
    expect(onB.find((e) => e.event === 'relay_resolved')?.data).toMatchObject({ status: 'approved' });
    expect(onB.filter((e) => e.event === 'tool_result')).toHaveLength(1);
    expect(onB.find((e) => e.event === 'tool_result')?.data).toMatchObject({ output: `${word}\n`, isError: false });

    // A executed it: its own stream carries the result (no `resumed`: nobody took the run over).
    onA.push(...(await chat.events.rest()));
    expect(onA.map((e) => e.event)).toEqual(expect.arrayContaining(['relay_resolved', 'tool_result', 'done']));
    expect(onA.map((e) => e.event)).not.toContain('resumed');
    expect(onA.find((e) => e.event === 'tool_result')?.data).toMatchObject({ output: `${word}\n` });
    const run = await (await fetch(`${baseA}/api/runs/${runId}`, { headers: adminAuthHeaders() })).json();
    expect(run).toMatchObject({ run: { status: 'done' }, live: false });
    const audit = await (await fetch(`${baseB}/api/audit?runId=${runId}`, { headers: adminAuthHeaders() })).json();
    expect(audit.items.map((item: { action: string }) => item.action).sort()).toEqual(['allow', 'ask']);
  } finally {
    await Promise.all([stop(a), stop(b)]);
  }
});
