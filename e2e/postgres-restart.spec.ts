// PostgreSQL goes away and comes back (issue 7, docs/DEPLOY.md "What failures look like"), with
// two instances A and B on a private cluster (e2e/support/private-postgres.ts: stopping the
// machine's main cluster would disturb the specs using it). While it is down every API call
// answers 503 with a clear message, a decision cannot be recorded and nothing runs; when it is
// back both instances recover by themselves (pool and LISTEN connection, no restart), runs carry
// on, every tool ran once, and every stream sees every event once, in order.
// Without PostgreSQL binaries it is skipped locally and fails under CI.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test } from '@playwright/test';
import { adminAuthHeaders, E2E_ADMIN_TOKEN } from './support/auth';
import { PrivatePostgres } from './support/private-postgres';
import { SseReader, type SseEvent } from './support/sse';

const portA = Number(process.env.E2E_PGRESTART_PORT_A ?? 3188);
const portB = Number(process.env.E2E_PGRESTART_PORT_B ?? 3189);
// Below Linux's ephemeral range (32768-60999): an outgoing connection's local port never takes it.
const pgPort = Number(process.env.E2E_PGRESTART_PG_PORT ?? 31188);
// Long enough for the LISTEN connections' backoff to grow past its first steps (100 ms doubling).
const OUTAGE_MS = 3_000;
// The pool reconnects on the next query; the listener within its backoff ceiling (5 s).
const RECOVERY_DEADLINE_MS = 15_000;
// A decision travels by notification: far below the 30 s re-read that would catch a lost one.
const NOTIFIED_DEADLINE_MS = 10_000;
const FINISHED = ['tool_call', 'relay', 'relay_resolved', 'tool_result', 'text', 'done'];

interface Instance {
  id: string;
  base: string;
  log: string;
  child: ChildProcess;
}

let cluster: PrivatePostgres | undefined;
let logDir = '';
let instances: Instance[] = [];

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const created = await PrivatePostgres.create({ port: pgPort, database: 'gatehouse_e2e_pgrestart' });
  if (!created.cluster) {
    if (process.env.CI)
      throw new Error(`PostgreSQL is required under CI: a private cluster could not be created: ${created.reason}`);
    test.skip(true, `a private PostgreSQL cluster could not be created: ${created.reason}`);
    return;
  }
  cluster = created.cluster;
  logDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-pgrestart-logs-'));
});

test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status !== testInfo.expectedStatus) {
    for (const instance of instances)
      if (existsSync(instance.log)) await testInfo.attach(`${instance.id}.log`, { path: instance.log });
    if (cluster && existsSync(cluster.logFile)) await testInfo.attach('postgresql.log', { path: cluster.logFile });
  }
  await Promise.all(instances.map(kill));
  instances = [];
  // A test that failed during an outage must not leave the next one without a database.
  if (cluster && !cluster.running()) await cluster.start();
});

test.afterAll(async () => {
  await cluster?.destroy();
});

/** A and B on the cluster, one shared workspace (a shared volume), leases of `leaseTtlS`. */
async function startPair(name: string, leaseTtlS: number): Promise<{ a: Instance; b: Instance; workspace: string }> {
  const workspace = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-pgrestart-ws-'));
  const a = startInstance(`e2e-${name}-a`, portA, workspace, leaseTtlS);
  const b = startInstance(`e2e-${name}-b`, portB, workspace, leaseTtlS);
  instances.push(a, b);
  await Promise.all([waitHealthy(a, 60_000), waitHealthy(b, 60_000)]);
  return { a, b, workspace };
}

function startInstance(id: string, port: number, workspace: string, leaseTtlS: number): Instance {
  const log = path.join(logDir, `${id}.log`);
  const out = openSync(log, 'a');
  const child = spawn(
    process.execPath,
    ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1', '--port', String(port)],
    {
      env: {
        ...process.env,
        DATABASE_URL: cluster!.url,
        GATEHOUSE_WORKSPACE: workspace,
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next',
        GATEHOUSE_INSTANCE_ID: id,
        GATEHOUSE_LEASE_TTL_S: String(leaseTtlS),
        GATEHOUSE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `gatehouse-pgrestart-${id}-`)),
        GATEHOUSE_MODEL: 'offline',
        GATEHOUSE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
        GATEHOUSE_SSE_HEARTBEAT_MS: '500',
        NEXT_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', out, out],
    },
  );
  closeSync(out);
  return { id, base: `http://127.0.0.1:${port}`, log, child };
}

/** Polls GET /api/health until it answers 200; returns how long that took. */
async function waitHealthy(instance: Instance, ms: number): Promise<number> {
  const { ms: took } = await within(ms, `instance ${instance.id} was not healthy (see ${instance.log})`, async () => {
    if (instance.child.exitCode !== null)
      throw new Error(`instance ${instance.id} exited with ${instance.child.exitCode}; see ${instance.log}`);
    return (
      (await fetch(`${instance.base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )) || undefined
    );
  });
  return took;
}

async function kill(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  const exited = new Promise((r) => instance.child.once('exit', r));
  instance.child.kill('SIGKILL');
  await exited;
}

/**
 * Polls `attempt` until it gives a value (a single long wait works too), failing with `what`
 * after `ms` instead of hanging until the test's timeout.
 */
async function within<T>(
  ms: number,
  what: string,
  attempt: () => Promise<T | undefined>,
): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)),
  );
  const poll = async () => {
    for (;;) {
      const value = await attempt();
      if (value !== undefined) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    return { value: await Promise.race([poll(), deadline]), ms: Date.now() - start };
  } finally {
    clearTimeout(timer);
  }
}

async function query<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: cluster!.url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

function get(instance: Instance, route: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${instance.base}${route}`, { headers: { ...adminAuthHeaders(), ...headers } });
}

function decide(instance: Instance, relayId: string, sessionId: string): Promise<Response> {
  return fetch(`${instance.base}/api/chat/relay/${relayId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...adminAuthHeaders() },
    body: JSON.stringify({ sessionId, response: { approved: true } }),
  });
}

/** Starts a run on `instance` whose bash command asks, and reads its stream up to the relay. */
async function startPausedRun(instance: Instance, command: string) {
  const chat = await SseReader.open(`${instance.base}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: `$ ${command}` }] }),
  });
  expect(chat.response.status).toBe(200);
  const { runId, sessionId } = (await chat.events.until('connected')).data as { runId: string; sessionId: string };
  const relayId = ((await chat.events.until('relay')).data as { id: string }).id;
  return { chat, runId, sessionId, relayId };
}

/** The answer of an instance that cannot reach the database: 503 with the app's error body. */
async function expectUnavailable(response: Response | Promise<Response>): Promise<void> {
  const answer = await response;
  expect(answer.status).toBe(503);
  expect(await answer.json()).toMatchObject({
    error: { code: 'unavailable:database', message: expect.stringMatching(/database is not reachable/) },
  });
}

/** GETs `route` on every instance, two at a time each, until `until` settles; returns the answers that were neither 200 nor 503. */
async function hammer(targets: Instance[], route: string, until: Promise<unknown>): Promise<string[]> {
  let settled = false;
  const done = until.finally(() => (settled = true));
  const unexpected: string[] = [];
  const loop = async (instance: Instance) => {
    while (!settled) {
      const response = await get(instance, route);
      const body = await response.text();
      if (response.status !== 200 && response.status !== 503)
        unexpected.push(`${instance.id}: ${response.status} ${body}`);
    }
  };
  await Promise.all(targets.flatMap((instance) => [loop(instance), loop(instance)]));
  await done;
  return unexpected;
}

/** The whole log from a stream opened now on `instance`: seq 1..n, nothing missing, ending at done. */
async function replay(instance: Instance, runId: string): Promise<SseEvent[]> {
  const stream = await SseReader.open(`${instance.base}/api/runs/${runId}/events`, {
    headers: { 'Last-Event-ID': '0' },
  });
  expect(stream.response.status).toBe(200);
  const all = await stream.events.rest();
  expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i + 1));
  expect(all.at(-1)?.event).toBe('done');
  return all;
}

async function expectApprovalAudited(instance: Instance, runId: string, relayId: string): Promise<void> {
  const audit = await (await get(instance, `/api/audit?runId=${runId}`)).json();
  const items = audit.items as Array<{
    action: string;
    decidedBy: string | null;
    details: { relayId?: string } | null;
  }>;
  expect(items.map((item) => item.action).sort()).toEqual(['allow', 'ask']);
  expect(items.find((item) => item.action === 'allow')).toMatchObject({ decidedBy: 'admin', details: { relayId } });
}

test('PostgreSQL stops while a run waits for approval: 503s, nothing recorded or run; it starts again, both instances recover by themselves and the run finishes once', async () => {
  // Leases longer than the outage, so A still holds the run when the database is back: this test
  // is about recovering in place (a run whose lease lapsed is the takeover spec's subject).
  const { a, b, workspace } = await startPair('paused', 15);
  const marker = path.join(workspace, `marker-${randomBytes(4).toString('hex')}.txt`);
  const { chat, runId, sessionId, relayId } = await startPausedRun(a, `echo ran >> ${path.basename(marker)}`);
  // B follows the run through the database, across the outage.
  const followed = await SseReader.open(`${b.base}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } });
  expect(followed.response.status).toBe(200);
  const onB: SseEvent[] = [];
  await followed.events.until('relay', onB);

  // A crash of PostgreSQL under load: requests in flight when it goes get a 503 too, never a 500.
  expect(await hammer([a, b], `/api/runs/${runId}`, cluster!.stop('immediate'))).toEqual([]);
  const downAt = Date.now();
  // Throughout the outage every call answers 503 with the app's message, and a decision is
  // refused (it cannot be recorded), so nothing it would allow runs.
  for (let round = 0; round === 0 || Date.now() - downAt < OUTAGE_MS; round++) {
    for (const instance of [a, b]) {
      const health = await get(instance, '/api/health');
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({
        ok: false,
        error: { code: 'unavailable:database', message: 'The database is not reachable' },
      });
      await expectUnavailable(get(instance, `/api/runs/${runId}`));
      await expectUnavailable(get(instance, `/api/runs/${runId}/events`, { 'Last-Event-ID': '0' }));
      await expectUnavailable(decide(instance, relayId, sessionId));
    }
    expect(existsSync(marker)).toBe(false);
    await new Promise((r) => setTimeout(r, 250));
  }
  // Open streams stay open (heartbeats) and the run does not move.
  await followed.events.untilComment('heartbeat', onB);
  expect(onB.map((e) => e.event)).toEqual(['tool_call', 'relay']);

  await cluster!.start();
  const downMs = Date.now() - downAt;
  const healthyIn = await Promise.all([a, b].map((instance) => waitHealthy(instance, RECOVERY_DEADLINE_MS)));
  // The LISTEN connections are back too (reconnected with backoff); each is named after its instance.
  const listening = await within(RECOVERY_DEADLINE_MS, 'the instances did not LISTEN again', async () => {
    const rows = await query<{ name: string }>(
      'SELECT application_name AS name FROM pg_stat_activity WHERE application_name = ANY($1) ORDER BY 1',
      [[a, b].map((i) => `gatehouse-${i.id}`)],
    );
    return rows.length === 2 ? rows : undefined;
  });
  expect(listening.value.map((row) => row.name)).toEqual([`gatehouse-${a.id}`, `gatehouse-${b.id}`]);
  test.info().annotations.push({
    type: 'outage',
    description: `PostgreSQL down ${downMs} ms; after its start, health 200 in ${healthyIn.join(' / ')} ms (A / B), both LISTENing again in ${listening.ms} ms`,
  });

  // Nothing was decided meanwhile: the run still waits on A, with its relay pending.
  expect(await (await get(a, `/api/runs/${runId}`)).json()).toMatchObject({
    run: { status: 'waiting' },
    pendingRelays: [{ id: relayId }],
    live: true,
  });
  expect(await (await get(b, `/api/runs/${runId}`)).json()).toMatchObject({ run: { status: 'waiting' }, live: false });
  expect(existsSync(marker)).toBe(false);

  // Decided through B; A executes it (it kept the lease), B's stream carries it to the end. Both
  // hops are notifications (B -> A: the relay, A -> B: the events), so this takes moments.
  expect((await decide(b, relayId, sessionId)).status).toBe(200);
  await within(NOTIFIED_DEADLINE_MS, 'the decision did not finish the run', () => followed.events.until('done', onB));
  onB.push(...(await followed.events.rest()));
  expect(onB.map((e) => e.event)).toEqual(FINISHED);
  expect(onB.map((e) => e.id)).toEqual(onB.map((_, i) => i + 1));
  expect(onB.find((e) => e.event === 'relay_resolved')?.data).toMatchObject({
    relayId,
    status: 'approved',
    decidedBy: 'admin',
  });
  expect(onB.find((e) => e.event === 'tool_result')?.data).toMatchObject({
    name: 'bash',
    isError: false,
    denied: false,
  });
  expect(readFileSync(marker, 'utf8')).toBe('ran\n');
  // A's own stream, open since the start, got the rest too.
  expect((await chat.events.rest()).map((e) => e.event)).toEqual(['relay_resolved', 'tool_result', 'text', 'done']);

  // A stream opened after the recovery replays everything, on either instance.
  for (const instance of [a, b]) expect((await replay(instance, runId)).map((e) => e.event)).toEqual(FINISHED);
  expect(await (await get(a, `/api/runs/${runId}`)).json()).toMatchObject({
    run: { status: 'done' },
    pendingRelays: [],
    live: false,
  });
  // One human decision recorded (the refused ones left no trace), by the admin.
  await expectApprovalAudited(b, runId, relayId);
  // A executed it throughout: the lease never changed hands, and was released at the end.
  expect(await query('SELECT owner, epoch FROM run_leases WHERE run_id = $1', [runId])).toEqual([
    { owner: null, epoch: 1 },
  ]);
  expect(
    await query(`SELECT count(*)::int AS n FROM tool_executions WHERE run_id = $1 AND status = 'done'`, [runId]),
  ).toEqual([{ n: 1 }]);
});

test('PostgreSQL stops while an approved tool runs: its result cannot be stored; once the database is back the run is continued and finishes, the tool never runs again', async () => {
  // Short leases: the instance that lost the run's result stops executing it, and the run waits
  // for its lease to lapse before it is continued (by A or B).
  const { a, b, workspace } = await startPair('running', 3);
  const marker = path.join(workspace, `marker-${randomBytes(4).toString('hex')}.txt`);
  const { chat, runId, sessionId, relayId } = await startPausedRun(
    a,
    `sleep 2 && echo ran >> ${path.basename(marker)}`,
  );
  expect((await decide(a, relayId, sessionId)).status).toBe(200);
  // The decision is stored and the call claimed (so it may run) before the database goes.
  await chat.events.until('relay_resolved');
  await within(5_000, 'the call was not claimed', async () =>
    (await query('SELECT 1 FROM tool_executions WHERE run_id = $1', [runId])).length === 1 ? true : undefined,
  );
  await cluster!.stop('immediate');
  // The command finishes during the outage; its result has nowhere to go.
  await within(10_000, 'the command did not finish', async () => existsSync(marker) || undefined);
  await expectUnavailable(get(a, `/api/runs/${runId}`));
  await cluster!.start();

  const all = (
    await within(30_000, 'the run did not finish after the outage', async () => {
      const run = (await (await get(b, `/api/runs/${runId}`)).json()) as { run?: { status: string } };
      return run.run?.status === 'running' || run.run?.status === 'waiting' ? undefined : run;
    })
  ).value;
  expect(all).toMatchObject({ run: { status: 'done' } });
  const events = await replay(b, runId);
  const results = events.filter((e) => e.event === 'tool_result');
  expect(results).toHaveLength(1);
  const stored = results[0]!.data as { output: string; isError: boolean };
  // Usually the result was lost with the database: the run was continued from its checkpoint and
  // the call reported as interrupted, not run again. (If the database was back before the result
  // was appended, the run simply finished in place.)
  const interrupted = /was interrupted .* it is not run again/.test(stored.output);
  test.info().annotations.push({
    type: 'path',
    description: interrupted
      ? 'result lost: the run was continued and the call reported as interrupted'
      : 'the result was stored after the restart: finished in place',
  });
  expect(events.map((e) => e.event)).toEqual(
    interrupted ? ['tool_call', 'relay', 'relay_resolved', 'tool_result', 'resumed', 'text', 'done'] : FINISHED,
  );
  expect(stored.isError).toBe(interrupted);
  expect(readFileSync(marker, 'utf8')).toBe('ran\n');
  await expectApprovalAudited(b, runId, relayId);
});

// A single lost connection during an event append (the database itself stays up): the pump stops
// its copy of the run without settling anything (lib/server/runs/run-pump.ts, 'unreachable'); the run
// keeps its status and checkpoint, the takeover scan continues it from the log once its lease
// lapses, and the decision the failed statement carried is stored and audited on resume.
test('a connection lost while an event is appended (PostgreSQL stays up) does not fail the run: it is continued and finishes, the tool ran once', async () => {
  const { a, b, workspace } = await startPair('append', 3);
  const marker = path.join(workspace, `marker-${randomBytes(4).toString('hex')}.txt`);
  const { runId, sessionId, relayId } = await startPausedRun(a, `echo ran >> ${path.basename(marker)}`);
  // Appends to the log wait behind this lock, so the one the decision causes can be cut.
  const locker = new pg.Client({ connectionString: cluster!.url });
  await locker.connect();
  try {
    await locker.query('BEGIN');
    await locker.query('LOCK TABLE events IN EXCLUSIVE MODE');
    expect((await decide(a, relayId, sessionId)).status).toBe(200);
    const blocked = await within(5_000, 'no append waited for the lock', async () => {
      // The append itself: it waits for its lock on `events` (a checkpoint can wait too, on the run
      // row the append locked first; and pg_stat_activity may still show the connection's previous
      // statement while a new one waits for a lock at parse time, so pg_locks says which it is).
      const rows = await locker.query<{ pid: number }>(
        `SELECT pid FROM pg_locks WHERE locktype = 'relation' AND relation = 'events'::regclass AND NOT granted AND pid <> pg_backend_pid()`,
      );
      return rows.rows[0];
    });
    await locker.query('SELECT pg_terminate_backend($1)', [blocked.value.pid]);
    await locker.query('ROLLBACK');
  } finally {
    await locker.end();
  }

  const run = (
    await within(20_000, 'the run did not end', async () => {
      const body = (await (await get(b, `/api/runs/${runId}`)).json()) as { run?: { status: string } };
      return body.run?.status === 'running' || body.run?.status === 'waiting' ? undefined : body;
    })
  ).value;
  expect(run).toMatchObject({ run: { status: 'done' } });
  expect(JSON.stringify(run)).not.toMatch(/Failed query|INSERT INTO/);
  const events = await replay(b, runId);
  expect(events.filter((e) => e.event === 'tool_result')).toHaveLength(1);
  expect(readFileSync(marker, 'utf8')).toBe('ran\n');
  await expectApprovalAudited(b, runId, relayId);
});
