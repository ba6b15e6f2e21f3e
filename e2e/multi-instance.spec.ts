// Two production servers on one PostgreSQL (docs/DEPLOY.md): a run started on A pauses on a relay;
// its events are streamed through B, the decision is posted to B, and the run finishes on A, which
// holds its lease. B's stream sees every event in order, ending with `done`; the tool ran once.
// A cancel posted to B stops a run executing on A. Last, A gets SIGTERM while a run waits: it
// hands the run over (releases its lease) and exits, and B adopts it at once, long before the
// lease TTL, and finishes it when the decision comes.
// Needs PostgreSQL (a fresh database from scripts/ensure-postgres.mjs): skipped without it locally,
// required under CI.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminAuthHeaders } from './support/auth';
import { freshDatabase, startServer, stop, waitHealthy } from './support/instances';
import { SseReader, type SseEvent } from './support/sse';

const portA = Number(process.env.E2E_MULTI_PORT_A ?? 3196);
const portB = Number(process.env.E2E_MULTI_PORT_B ?? 3197);
const baseA = `http://127.0.0.1:${portA}`;
const baseB = `http://127.0.0.1:${portB}`;

test.describe.serial('two instances on one PostgreSQL', () => {
  let a: ChildProcess | undefined;
  let b: ChildProcess | undefined;
  let workspace = '';

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    const database = freshDatabase(
      process.env.E2E_MULTI_DATABASE_URL ||
        `postgres://gatehouse:gatehouse@127.0.0.1:5432/gatehouse_e2e_multi_${portA}`,
    );
    if (!database.url) {
      if (process.env.CI) throw new Error(`PostgreSQL is required under CI: ${database.reason}`);
      test.skip(true, `PostgreSQL is not available, so two instances cannot share a database: ${database.reason}`);
      return;
    }
    // One workspace for both (as a shared volume would be), separate data directories.
    workspace = mkdtempSync(path.join(os.tmpdir(), 'gatehouse-multi-ws-'));
    const common = { DATABASE_URL: database.url, GATEHOUSE_WORKSPACE: workspace };
    // A handles SIGTERM itself, as under `npm start` (lib/server/shutdown.ts).
    a = startServer(portA, {
      ...common,
      GATEHOUSE_INSTANCE_ID: 'e2e-a',
      NEXT_MANUAL_SIG_HANDLE: 'true',
      GATEHOUSE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'gatehouse-multi-a-')),
    });
    b = startServer(portB, {
      ...common,
      GATEHOUSE_INSTANCE_ID: 'e2e-b',
      GATEHOUSE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'gatehouse-multi-b-')),
    });
    await Promise.all([waitHealthy(baseA, a), waitHealthy(baseB, b)]);
  });

  test.afterAll(async () => {
    await Promise.all([stop(a), stop(b)]);
  });

  /** Starts a run on A that pauses on its bash call; resolves with its ids, relay and A's stream. */
  async function pausedOnA(command: string) {
    const chat = await SseReader.open(`${baseA}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: `$ ${command}` }] }),
    });
    expect(chat.response.status).toBe(200);
    const onA: SseEvent[] = [];
    const { runId, sessionId } = (await chat.events.until('connected', onA)).data as {
      runId: string;
      sessionId: string;
    };
    const relay = (await chat.events.until('relay', onA)).data as { id: string };
    return { chat, onA, runId, sessionId, relay };
  }

  const runOn = async (base: string, runId: string) =>
    (await (await fetch(`${base}/api/runs/${runId}`, { headers: adminAuthHeaders() })).json()) as {
      live: boolean;
      run: { status: string };
      pendingRelays: { id: string }[];
    };

  test('a run executing on A is streamed and approved through B, and finishes on A with the tool run once', async () => {
    const word = `multi-${randomBytes(4).toString('hex')}`;
    const { chat, onA, runId, sessionId, relay } = await pausedOnA(`echo ${word}`);
    // B does not execute the run: it follows A's through the database.
    const followed = await SseReader.open(`${baseB}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } });
    expect(followed.response.status).toBe(200);
    const onB: SseEvent[] = [];
    await followed.events.until('relay', onB);
    const live = (base: string) => runOn(base, runId);
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
  });

  test('a cancel posted to B stops the run executing on A: its streams end cancelled, the tool never runs', async () => {
    const marker = `cancelled-${randomBytes(4).toString('hex')}.txt`;
    const { chat, onA, runId } = await pausedOnA(`echo never > ${marker}`);
    const cancelled = await fetch(`${baseB}/api/runs/${runId}/cancel`, { method: 'POST', headers: adminAuthHeaders() });
    expect(cancelled.status).toBe(200);
    onA.push(...(await chat.events.rest()));
    expect(onA.at(-1)).toMatchObject({ event: 'done', data: { finishReason: 'cancelled' } });
    expect(onA.find((e) => e.event === 'relay_resolved')?.data).toMatchObject({ status: 'cancelled' });
    await expect.poll(async () => (await runOn(baseA, runId)).live).toBe(false);
    expect(await runOn(baseB, runId)).toMatchObject({ run: { status: 'cancelled' }, pendingRelays: [] });
    expect(() => readFileSync(path.join(workspace, marker))).toThrow();
  });

  test('a Claude Code hook call held on A is decided through B, and its retry on B gets the same decision', async () => {
    const session = `multi-hook-${randomBytes(4).toString('hex')}`;
    const body = {
      session_id: session,
      cwd: workspace,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: `touch ${session}` },
      tool_use_id: `toolu_${session}`,
    };
    const hookOn = (base: string) =>
      fetch(`${base}/api/hooks/claude-code?deadline=60`, {
        method: 'POST',
        headers: { ...adminAuthHeaders(), 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json() as Promise<{ hookSpecificOutput: { permissionDecision: string } }>);
    const held = hookOn(baseA);
    const runs = async () =>
      (await (await fetch(`${baseB}/api/runs?source=hook`, { headers: adminAuthHeaders() })).json()) as {
        items: { id: string; title: string }[];
      };
    let runId: string | undefined;
    await expect
      .poll(async () => (runId = (await runs()).items.find((r) => r.title === workspace)?.id) !== undefined)
      .toBe(true);
    let relay: { id: string; sessionId: string } | undefined;
    await expect
      .poll(async () => {
        const detail = (await (await fetch(`${baseB}/api/runs/${runId}`, { headers: adminAuthHeaders() })).json()) as {
          pendingRelays: { id: string; sessionId: string }[];
        };
        relay = detail.pendingRelays[0];
        return relay !== undefined;
      })
      .toBe(true);
    const decided = await fetch(`${baseB}/api/chat/relay/${relay!.id}`, {
      method: 'POST',
      headers: { ...adminAuthHeaders(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ sessionId: relay!.sessionId, response: { approved: true } }),
    });
    expect(decided.status).toBe(200);
    expect((await held).hookSpecificOutput.permissionDecision).toBe('allow');
    // Claude Code retrying the same call (its tool_use_id) on the other instance: the same answer.
    expect((await hookOn(baseB)).hookSpecificOutput.permissionDecision).toBe('allow');
  });

  test('SIGTERM: A hands its waiting run over and exits; B adopts it at once and finishes it on the decision', async () => {
    const marker = `handed-${randomBytes(4).toString('hex')}.txt`;
    const { runId, sessionId, relay } = await pausedOnA(`echo handed >> ${marker}`);
    const exited = new Promise<number | null>((resolve) => a!.once('exit', (code) => resolve(code)));
    const signalled = Date.now();
    a!.kill('SIGTERM');
    expect(await exited).toBe(143);
    // The lease TTL is 15 s: only the handover makes B execute the run this soon.
    await expect.poll(async () => (await runOn(baseB, runId)).live, { timeout: 10_000 }).toBe(true);
    expect(Date.now() - signalled).toBeLessThan(10_000);
    // Nothing was settled on the way: the same relay is still pending.
    expect((await runOn(baseB, runId)).pendingRelays.map((r) => r.id)).toEqual([relay.id]);
    const followed = await SseReader.open(`${baseB}/api/runs/${runId}/events`, { headers: { 'Last-Event-ID': '0' } });
    const decided = await fetch(`${baseB}/api/chat/relay/${relay.id}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...adminAuthHeaders() },
      body: JSON.stringify({ sessionId, response: { approved: true } }),
    });
    expect(decided.status).toBe(200);
    const events = await followed.events.rest();
    expect(events.map((e) => e.event)).toEqual([
      'tool_call',
      'relay',
      'resumed',
      'relay_resolved',
      'tool_result',
      'text',
      'done',
    ]);
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));
    expect(readFileSync(path.join(workspace, marker), 'utf8')).toBe('handed\n');
  });
});
