// Fault tolerance across instances (issue 7, docs/DEPLOY.md "What failures look like"): a run
// paused on a relay on instance A survives `kill -9` of A, or A losing its connection to the
// database. Instance B, on the same PostgreSQL and the same workspace, adopts the run once A's
// lease lapses and finishes it after the decision, whether that comes before or after the
// adoption, or through A once it is back. The tool runs exactly once.
// Short leases (GATEHOUSE_LEASE_TTL_S=2) keep the takeover to a few seconds. Needs PostgreSQL (a
// fresh database from scripts/ensure-postgres.mjs): skipped without it locally, required under CI.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test, type TestInfo } from '@playwright/test';
import { adminAuthHeaders, E2E_ADMIN_TOKEN } from './support/auth';
import { SseReader, type SseEvent } from './support/sse';

const portA = Number(process.env.E2E_TAKEOVER_PORT_A ?? 3186);
const portB = Number(process.env.E2E_TAKEOVER_PORT_B ?? 3187);
/**
 * Where A reaches PostgreSQL in the partition case (a TCP proxy the test can cut). Below Linux's
 * ephemeral range (32768-60999): an outgoing connection's local port never takes it.
 */
const proxyPort = Number(process.env.E2E_TAKEOVER_PROXY_PORT ?? 31186);
const LEASE_TTL_S = 2;
// A's lease lapses at most one TTL after the kill, and B scans for lapsed leases about once per TTL.
const ADOPTION_DEADLINE_MS = 4 * LEASE_TTL_S * 1000 + 5_000;
const EXPECTED_EVENTS = ['tool_call', 'relay', 'resumed', 'relay_resolved', 'tool_result', 'text', 'done'];

/** A fresh database named after A's port (so parallel runs on other ports never share it), or why not. */
function freshDatabase(): { url?: string; reason?: string } {
  const target =
    process.env.E2E_TAKEOVER_DATABASE_URL ||
    `postgres://gatehouse:gatehouse@127.0.0.1:5432/gatehouse_e2e_takeover_${portA}`;
  const result = spawnSync(process.execPath, ['scripts/ensure-postgres.mjs'], {
    env: { ...process.env, E2E_DATABASE_URL: target },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status === 0) return { url: result.stdout.trim().split('\n').at(-1) };
  return { reason: `${result.stderr ?? ''}${result.error?.message ?? ''}`.trim() || `exit ${result.status}` };
}

/** One production server (`next start` of the existing build), its output in a log file attached on failure. */
class Instance {
  private constructor(
    readonly id: string,
    readonly base: string,
    readonly log: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(id: string, port: number, env: Record<string, string>): Promise<Instance> {
    const log = path.join(logDir, `${id}.log`);
    const out = openSync(log, 'a');
    const child = spawn(
      process.execPath,
      ['node_modules/next/dist/bin/next', 'start', '--hostname', '127.0.0.1', '--port', String(port)],
      {
        env: {
          ...process.env,
          ...env,
          NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? '.next',
          GATEHOUSE_INSTANCE_ID: id,
          GATEHOUSE_LEASE_TTL_S: String(LEASE_TTL_S),
          GATEHOUSE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), `gatehouse-takeover-${id}-`)),
          GATEHOUSE_MODEL: 'offline',
          GATEHOUSE_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
          GATEHOUSE_SSE_HEARTBEAT_MS: '1000',
          NEXT_TELEMETRY_DISABLED: '1',
        },
        stdio: ['ignore', out, out],
      },
    );
    closeSync(out);
    const instance = new Instance(id, `http://127.0.0.1:${port}`, log, child);
    await instance.waitHealthy();
    return instance;
  }

  private async waitHealthy(): Promise<void> {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
      if (this.child.exitCode !== null)
        throw new Error(`instance ${this.id} exited with ${this.child.exitCode}; see ${this.log}`);
      if (
        await fetch(`${this.base}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        return;
    }
    throw new Error(`instance ${this.id} was not healthy within 60 s; see ${this.log}`);
  }

  /** `kill -9`: no shutdown hook runs, its leases stay recorded until they lapse. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.kill('SIGKILL');
    await exited;
  }
}

/** A TCP proxy to PostgreSQL that the test can cut (every connection reset, new ones refused) and restore: one instance's network to the database. */
class CuttableProxy {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    private readonly port: number,
    private readonly target: { host: string; port: number },
  ) {}

  async open(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        // One side failing ends both, as a broken network would.
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    const closed = server ? new Promise((r) => server.close(r)) : undefined;
    for (const socket of this.sockets) socket.resetAndDestroy();
    await closed;
  }
}

let logDir = '';
let databaseUrl = '';
let workspace = '';
let b: Instance | undefined;
const started: Instance[] = [];

test.describe.configure({ mode: 'serial', timeout: 60_000 });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const database = freshDatabase();
  if (!database.url) {
    if (process.env.CI) throw new Error(`PostgreSQL is required under CI: ${database.reason}`);
    test.skip(true, `PostgreSQL is not available, so two instances cannot share a database: ${database.reason}`);
    return;
  }
  databaseUrl = database.url;
  logDir = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-takeover-logs-'));
  // One workspace for every instance, as a shared volume would be: the adopter continues on the same files.
  workspace = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-takeover-ws-'));
  b = await Instance.start('e2e-takeover-b', portB, { DATABASE_URL: databaseUrl, GATEHOUSE_WORKSPACE: workspace });
  started.push(b);
  // The decision route loaded before any clock starts running (a cold route takes a moment).
  expect((await decide(b, randomBytes(8).toString('hex'), 'warm-up')).status).toBe(404);
});

test.afterEach(async () => {
  const testInfo = test.info();
  if (testInfo.status !== testInfo.expectedStatus) await attachLogs(testInfo);
  // A test that failed before killing its A must not leave the port taken for the next one.
  await Promise.all(started.filter((instance) => instance !== b).map((instance) => instance.kill()));
});

test.afterAll(async () => {
  await Promise.all(started.map((instance) => instance.kill()));
});

async function attachLogs(testInfo: TestInfo): Promise<void> {
  for (const instance of started)
    if (existsSync(instance.log)) await testInfo.attach(`${instance.id}.log`, { path: instance.log });
}

async function startA(id: string): Promise<Instance> {
  const a = await Instance.start(id, portA, { DATABASE_URL: databaseUrl, GATEHOUSE_WORKSPACE: workspace });
  started.push(a);
  return a;
}

/** Starts a run on `instance` that appends a line to a fresh marker file, and reads its stream up to the relay. */
async function startPausedRun(instance: Instance) {
  const marker = `marker-${randomBytes(4).toString('hex')}.txt`;
  const chat = await SseReader.open(`${instance.base}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: `$ echo ran >> ${marker}` }] }),
  });
  expect(chat.response.status).toBe(200);
  const { runId, sessionId } = (await chat.events.until('connected')).data as { runId: string; sessionId: string };
  const relay = (await chat.events.until('relay')).data as { id: string };
  return { runId, sessionId, relayId: relay.id, marker: path.join(workspace, marker) };
}

function decide(instance: Instance, relayId: string, sessionId: string): Promise<Response> {
  return fetch(`${instance.base}/api/chat/relay/${relayId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...adminAuthHeaders() },
    body: JSON.stringify({ sessionId, response: { approved: true } }),
  });
}

async function runOn(instance: Instance, runId: string) {
  const response = await fetch(`${instance.base}/api/runs/${runId}`, { headers: adminAuthHeaders() });
  expect(response.status).toBe(200);
  return (await response.json()) as { run: { status: string }; pendingRelays: Array<{ id: string }>; live: boolean };
}

async function lease(runId: string): Promise<{ owner: string | null; epoch: number; live: boolean } | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ owner: string | null; epoch: number; live: boolean }>(
      'SELECT owner, epoch, expires_at > now() AS live FROM run_leases WHERE run_id = $1',
      [runId],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/** Reads `events` until a `type` event, failing with `what` after `ms` instead of hanging until the test timeout. */
async function untilWithin(
  events: SseReader,
  type: string,
  seen: SseEvent[],
  ms: number,
  what: string,
): Promise<SseEvent> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(
        () => reject(new Error(`${what} within ${ms} ms; saw ${seen.map((e) => e.event).join(', ')}`)),
        ms,
      )),
  );
  try {
    return await Promise.race([events.until(type, seen), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `attempt` until it gives a value, failing with `what` after `ms`. */
async function within<T>(ms: number, what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + ms; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const value = await attempt();
    if (value !== undefined) return value;
  }
  throw new Error(`${what} within ${ms} ms`);
}

/** What every case ends with: B finished the run, the tool ran once, the audit names the approver. */
async function expectFinishedOnceByB(runId: string, relayId: string, marker: string, seen: SseEvent[]): Promise<void> {
  expect(seen.map((e) => e.event)).toEqual(EXPECTED_EVENTS);
  expect(seen.map((e) => e.id)).toEqual(seen.map((_, i) => i + 1));
  expect(seen.find((e) => e.event === 'relay_resolved')?.data).toMatchObject({
    relayId,
    status: 'approved',
    decidedBy: 'admin',
  });
  expect(seen.find((e) => e.event === 'tool_result')?.data).toMatchObject({
    name: 'bash',
    isError: false,
    denied: false,
  });
  expect(readFileSync(marker, 'utf8')).toBe('ran\n');
  expect(await runOn(b!, runId)).toMatchObject({ run: { status: 'done' }, pendingRelays: [], live: false });
  // A took the lease (epoch 1), B took it over (epoch 2) and released it at the end.
  expect(await lease(runId)).toMatchObject({ owner: null, epoch: 2 });
  const audit = await (await fetch(`${b!.base}/api/audit?runId=${runId}`, { headers: adminAuthHeaders() })).json();
  const items = audit.items as Array<{
    action: string;
    decidedBy: string | null;
    details: { relayId?: string } | null;
  }>;
  expect(items.map((item) => item.action).sort()).toEqual(['allow', 'ask']);
  expect(items.find((item) => item.action === 'allow')).toMatchObject({ decidedBy: 'admin', details: { relayId } });
}

test('A is killed while a run waits for approval: B adopts it once the lease lapses, the decision posted to B finishes it, the tool ran once', async () => {
  const testInfo = test.info();
  const a = await startA('e2e-takeover-a1');
  const { runId, sessionId, relayId, marker } = await startPausedRun(a);
  expect(await lease(runId)).toMatchObject({ owner: a.id, epoch: 1, live: true });

  await a.kill();
  const killedAt = Date.now();
  const followed = await SseReader.open(`${b!.base}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } });
  expect(followed.response.status).toBe(200);
  const seen: SseEvent[] = [];
  await untilWithin(followed.events, 'resumed', seen, ADOPTION_DEADLINE_MS, 'B did not adopt the run');
  testInfo.annotations.push({
    type: 'takeover',
    description: `B adopted the run ${Date.now() - killedAt} ms after kill -9 of A (lease TTL ${LEASE_TTL_S} s)`,
  });

  // Adopted, still waiting for the human: nothing ran on the way.
  expect(await runOn(b!, runId)).toMatchObject({
    run: { status: 'waiting' },
    pendingRelays: [{ id: relayId }],
    live: true,
  });
  expect(await lease(runId)).toMatchObject({ owner: b!.id, epoch: 2, live: true });
  expect(existsSync(marker)).toBe(false);

  expect((await decide(b!, relayId, sessionId)).status).toBe(200);
  seen.push(...(await followed.events.rest()));
  await expectFinishedOnceByB(runId, relayId, marker, seen);
});

test('A is killed while a run waits for approval and the decision reaches B before the lease lapses: B adopts the approved run and finishes it once', async () => {
  const testInfo = test.info();
  const a = await startA('e2e-takeover-a2');
  const { runId, sessionId, relayId, marker } = await startPausedRun(a);

  await a.kill();
  const killedAt = Date.now();
  // Settled in the database by B while A's lease still stands: nobody executes the run right now.
  expect((await decide(b!, relayId, sessionId)).status).toBe(200);
  expect(await lease(runId)).toMatchObject({ owner: a.id, epoch: 1, live: true });
  expect(await runOn(b!, runId)).toMatchObject({ run: { status: 'waiting' }, pendingRelays: [], live: false });

  const followed = await SseReader.open(`${b!.base}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } });
  expect(followed.response.status).toBe(200);
  const seen: SseEvent[] = [];
  await untilWithin(followed.events, 'done', seen, ADOPTION_DEADLINE_MS, 'B did not adopt and finish the run');
  testInfo.annotations.push({
    type: 'takeover',
    description: `B finished the run ${Date.now() - killedAt} ms after kill -9 of A (lease TTL ${LEASE_TTL_S} s)`,
  });
  seen.push(...(await followed.events.rest()));
  await expectFinishedOnceByB(runId, relayId, marker, seen);
});

test('A loses its connection to PostgreSQL while B keeps it: B adopts the paused run, A stops its copy when it is back (its lease is gone), and the tool runs once', async () => {
  const database = new URL(databaseUrl);
  const proxy = new CuttableProxy(proxyPort, { host: database.hostname, port: Number(database.port || 5432) });
  await proxy.open();
  try {
    const viaProxy = new URL(databaseUrl);
    viaProxy.port = String(proxyPort);
    const a = await Instance.start('e2e-takeover-a3', portA, {
      DATABASE_URL: viaProxy.toString(),
      GATEHOUSE_WORKSPACE: workspace,
    });
    started.push(a);
    const { runId, sessionId, relayId, marker } = await startPausedRun(a);
    const followed = await SseReader.open(`${b!.base}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } });
    expect(followed.response.status).toBe(200);
    const seen: SseEvent[] = [];
    await followed.events.until('relay', seen);

    await proxy.cut();
    const cutAt = Date.now();
    // A answers 503 (it cannot reach the database); B, which can, adopts the run once A's lease lapses.
    const onA = await fetch(`${a.base}/api/runs/${runId}`, { headers: adminAuthHeaders() });
    expect(onA.status).toBe(503);
    expect(await onA.json()).toMatchObject({ error: { code: 'unavailable:database' } });
    await untilWithin(followed.events, 'resumed', seen, ADOPTION_DEADLINE_MS, 'B did not adopt the run');
    test.info().annotations.push({
      type: 'takeover',
      description: `B adopted the run ${Date.now() - cutAt} ms after A lost the database (lease TTL ${LEASE_TTL_S} s)`,
    });
    expect(await lease(runId)).toMatchObject({ owner: b!.id, epoch: 2, live: true });

    // A is back and still holds its copy of the run, waiting on the same relay; the decision goes
    // to A. Both copies wake, but only the lease holder may store or claim anything.
    await proxy.open();
    await within(15_000, 'A did not reach the database again', async () =>
      (await fetch(`${a.base}/api/health`)).ok ? true : undefined,
    );
    expect((await decide(a, relayId, sessionId)).status).toBe(200);
    seen.push(...(await followed.events.rest()));
    await expectFinishedOnceByB(runId, relayId, marker, seen);
    // A noticed it lost the run and stopped its copy.
    await within(15_000, 'A did not stop its copy of the run', async () =>
      (await runOn(a, runId)).live ? undefined : true,
    );
  } finally {
    await proxy.cut();
  }
});
