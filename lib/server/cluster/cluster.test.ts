// Two instances on one PostgreSQL, as two runtimes would wire them (each its own broker, run
// manager and notify bus): a decision made on B resumes the run executing on A, a stream on B
// sees every event of A's run in order, once, ending with `done`, and B never executes A's run.
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOfflineModel } from '../../agent';
import { createQueries, openDatabase, type DatabaseHandle, type Queries } from '../../db';
import { createScratchDatabase, probePostgres } from '../../db/test-support/postgres';
import { DurableRelayBroker } from '../../relay';
import { listenForRelays } from './cluster';
import { DbGrantStore } from '../stores/grant-store';
import { PgNotifyBus } from './pg-notify';
import { DbRelayStore } from '../stores/relay-store';
import type { LoggedEvent } from '../../contract';
import { RunManager } from '../runs/run-manager';
import { ofType } from '../test-support/run-manager';

const postgres = await probePostgres();
if (!postgres.url && process.env.CI === 'true')
  throw new Error(`PostgreSQL is required under CI=true: ${postgres.reason}`);

interface Instance {
  name: string;
  broker: DurableRelayBroker;
  runs: RunManager;
  bus: PgNotifyBus;
  close(): Promise<void>;
}

describe.skipIf(!postgres.url)(
  `two instances on one PostgreSQL${postgres.url ? '' : ` (no PostgreSQL: ${postgres.reason})`}`,
  () => {
    let handle: DatabaseHandle;
    let q: Queries;
    let url: string;
    let drop: () => Promise<void>;
    let workspace: string | undefined;
    const instances: Instance[] = [];

    beforeAll(async () => {
      const scratch = await createScratchDatabase(postgres.url!);
      url = scratch.url;
      drop = scratch.drop;
      handle = await openDatabase({ databaseUrl: url });
      q = createQueries(handle.db);
    });
    afterAll(async () => {
      await handle?.close();
      await drop?.();
    });
    afterEach(async () => {
      await Promise.all(instances.splice(0).map((i) => i.close()));
      if (workspace) await rm(workspace, { recursive: true, force: true });
      workspace = undefined;
    });

    /** `silent`: its notifications are never sent (as if they were all lost). `wrap`: its queries, changed. */
    async function instance(
      name: string,
      { silent = false, leaseTtlS = 15, wrap = (queries: Queries) => queries } = {},
    ): Promise<Instance> {
      workspace ??= await realpath(await mkdtemp(path.join(os.tmpdir(), 'gatehouse-cluster-')));
      const dir = workspace;
      const errors: Error[] = [];
      const onError = (error: Error) => errors.push(error);
      const execute = silent ? async () => undefined : (statement: SQL) => handle.db.execute(statement);
      const bus = new PgNotifyBus({
        connectionString: url,
        execute,
        applicationName: `test-${name}`,
        backoff: { initialMs: 20, maxMs: 200 },
        onError,
      });
      await bus.ready();
      // A slow poll: only a notification can wake a waiter within the test's time.
      const relayStore = new DbRelayStore(q.relays, {
        onSettled: (relayId) => bus.notify('gatehouse_relay', { relayId }),
        onError,
        leaseOwner: `instance-${name}`,
      });
      const broker = new DurableRelayBroker(relayStore, { pollMs: 60_000 });
      const stopRelays = await listenForRelays(bus, broker);
      // Silent: its event appends announce nothing either (the NOTIFY rides in the append statement).
      const queries: Queries = silent
        ? {
            ...q,
            events: {
              ...q.events,
              appendEvents: (input) => q.events.appendEvents({ ...input, notifyChannel: undefined }),
              appendEventsClaiming: (input) => q.events.appendEventsClaiming({ ...input, notifyChannel: undefined }),
            },
          }
        : q;
      const runs = new RunManager({
        q: wrap(queries),
        broker,
        grants: new DbGrantStore(q.grants),
        model: createOfflineModel(),
        modelName: 'offline',
        workspace: dir,
        approvalTimeoutS: 60,
        cluster: { bus, owner: `instance-${name}`, leaseTtlS, onError },
      });
      const created: Instance = {
        name,
        broker,
        runs,
        bus,
        async close() {
          stopRelays();
          await runs.close();
          await bus.close();
        },
      };
      instances.push(created);
      return created;
    }

    /** Follows a run on `m` until `done`. */
    function follow(
      m: RunManager,
      runId: string,
      afterSeq: number,
      onEvent: (e: LoggedEvent) => void = () => undefined,
    ) {
      let unsubscribe: (() => void) | undefined;
      const seen: LoggedEvent[] = [];
      const done = new Promise<LoggedEvent[]>((resolve, reject) => {
        m.subscribe(runId, afterSeq, (event) => {
          seen.push(event);
          onEvent(event);
          if (event.type === 'done') {
            unsubscribe?.();
            resolve(seen);
          }
        }).then((off) => (unsubscribe = off), reject);
      });
      return { seen, done };
    }

    async function until(check: () => Promise<boolean>, what: string) {
      const deadline = Date.now() + 10_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    }

    it('a run executing on A pauses; the decision made on B resumes it on A; B streams every event once, in order', async () => {
      const a = await instance('a');
      const b = await instance('b');
      const { runId, sessionId } = await a.runs.start({
        messages: [{ role: 'user', content: '$ echo ran >> multi.log' }],
      });
      const onB = follow(b.runs, runId, 0);
      const relay = await new Promise<{ id: string }>((resolve) => {
        void a.runs.subscribe(runId, 0, (event) => {
          if (event.type === 'relay') resolve(event);
        });
      });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      expect(a.runs.isLive(runId)).toBe(true);
      expect(b.runs.isLive(runId)).toBe(false);
      // B's boot-time (or periodic) recovery leaves a run whose lease A holds alone.
      expect(await b.runs.recover()).toEqual([]);
      expect(b.runs.isLive(runId)).toBe(false);
      expect(await q.leases.getLease({ runId })).toMatchObject({ owner: 'instance-a' });

      await b.runs.resolve(relay.id, { sessionId, response: { approved: true }, decidedBy: 'bob' });
      const events = await onB.done;
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.map((e) => e.type)).toEqual([
        'tool_call',
        'relay',
        'relay_resolved',
        'tool_result',
        'text',
        'done',
      ]);
      expect(ofType(events, 'relay_resolved')[0]!).toMatchObject({ status: 'approved', decidedBy: 'bob' });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'done', 'the run to finish');
      expect(await readFile(path.join(workspace!, 'multi.log'), 'utf8')).toBe('ran\n');
      expect(b.runs.isLive(runId)).toBe(false);
      // Released at the end: nobody holds a finished run.
      await until(async () => (await q.leases.getLease({ runId }))?.owner === null, 'the lease to be released');
    });

    it('a stream opened on B mid-run (after a seq) and a decision through decideChecked: the rest, once, in order', async () => {
      const a = await instance('a');
      const b = await instance('b');
      const { runId } = await a.runs.start({ messages: [{ role: 'user', content: '$ echo second' }] });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      const [pending] = await q.relays.listPendingRelays({ runId });
      const onB = follow(b.runs, runId, 1);
      await b.runs.decideChecked(pending!.id, { approved: true }, 'carol');
      const events = await onB.done;
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 2));
      expect(events.map((e) => e.type)).toEqual(['relay', 'relay_resolved', 'tool_result', 'text', 'done']);
      expect(ofType(events, 'tool_result')[0]!).toMatchObject({ output: 'second\n' });
      expect((await q.toolExecutions.listToolExecutions({ runId })).length).toBe(1);
    });

    it('a run whose lease lapsed (its instance gone) is adopted by exactly one of the others', async () => {
      const a = await instance('a');
      const { runId, sessionId } = await a.runs.start({ messages: [{ role: 'user', content: '$ echo adopted' }] });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      // A dies: its bus and timers stop; its lease is given up as an expiry would.
      await a.close();
      instances.splice(instances.indexOf(a), 1);
      await q.leases.releaseLease({ runId, owner: 'instance-a' });
      const b = await instance('b');
      const c = await instance('c');
      const [onB, onC] = await Promise.all([b.runs.recover(), c.runs.recover()]);
      expect([...onB, ...onC]).toEqual([runId]);
      const executor = onB.length ? b : c;
      const other = onB.length ? c : b;
      const stream = follow(other.runs, runId, 0);
      const [relay] = await q.relays.listPendingRelays({ runId });
      await other.runs.resolve(relay!.id, { sessionId, response: { approved: true }, decidedBy: 'dave' });
      const events = await stream.done;
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.map((e) => e.type)).toEqual([
        'tool_call',
        'relay',
        'resumed',
        'relay_resolved',
        'tool_result',
        'text',
        'done',
      ]);
      // The other instance can hear of `done` (NOTIFY at the commit) before the executor's append returns.
      await until(async () => !executor.runs.isLive(runId), 'the executor to end its copy');
      expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'done' });
    });

    it('a new run is leased in the transaction that creates it: a takeover scan meanwhile never adopts it', async () => {
      const b = await instance('b');
      let adopted: string[] | undefined;
      // B scans for runs to adopt just before A takes its new run's lease (then A's run is not yet
      // committed; were it committed unleased, B would adopt it and A would not execute it).
      const scanFirst = (leases: Queries['leases']): Queries['leases'] => ({
        ...leases,
        acquireLease: async (input) => {
          adopted ??= await b.runs.recover();
          return leases.acquireLease(input);
        },
      });
      const a = await instance('a', {
        wrap: (queries) => ({
          ...queries,
          leases: scanFirst(queries.leases),
          transaction: (fn) => queries.transaction((tx) => fn({ ...tx, leases: scanFirst(tx.leases) })),
        }),
      });
      const { runId } = await a.runs.start({ messages: [{ role: 'user', content: '$ echo mine' }] });
      expect(adopted).toBeDefined();
      expect(adopted).not.toContain(runId);
      expect(await q.leases.getLease({ runId })).toMatchObject({ owner: 'instance-a', epoch: 1 });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      expect(a.runs.isLive(runId)).toBe(true);
      expect(b.runs.isLive(runId)).toBe(false);
      expect((await q.events.listEvents({ runId })).map((e) => e.type)).toEqual(['tool_call', 'relay']);
    });

    /** Cuts the instance's listening connection: it reconnects and signals `reconnected`. */
    async function cutListener(target: Instance) {
      const pid = target.bus.backendPid;
      expect(pid).toBeDefined();
      const reconnected = new Promise<void>((resolve) => {
        const off = target.bus.on('reconnected', () => {
          off();
          resolve();
        });
      });
      await handle.db.execute(sql`SELECT pg_terminate_backend(${pid}::int)`);
      await reconnected;
    }

    it('notifications lost while the listener was away: after the reconnect the stream reads the rest of the log', async () => {
      const a = await instance('a', { silent: true });
      const b = await instance('b');
      const { runId, sessionId } = await a.runs.start({ messages: [{ role: 'user', content: '$ echo quiet' }] });
      // `waiting` is stored with the relay event: both are in the log B replays.
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      const onB = follow(b.runs, runId, 0);
      await until(async () => onB.seen.length === 2, 'B to replay the log so far');
      const [relay] = await q.relays.listPendingRelays({ runId });
      await a.runs.resolve(relay!.id, { sessionId, response: { approved: true }, decidedBy: 'erin' });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'done', 'the run to finish');
      // B heard nothing of the rest of the run.
      expect(onB.seen.map((e) => e.type)).toEqual(['tool_call', 'relay']);
      await cutListener(b);
      const events = await onB.done;
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.map((e) => e.type)).toEqual([
        'tool_call',
        'relay',
        'relay_resolved',
        'tool_result',
        'text',
        'done',
      ]);
    });

    it('a decision whose notification was lost: after the reconnect the waiter re-reads it and the run goes on', async () => {
      const a = await instance('a', { silent: true });
      const b = await instance('b');
      const { runId } = await b.runs.start({ messages: [{ role: 'user', content: '$ echo woken' }] });
      const onB = follow(b.runs, runId, 0);
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      const [relay] = await q.relays.listPendingRelays({ runId });
      await a.runs.decideChecked(relay!.id, { approved: true }, 'frank');
      await new Promise((r) => setTimeout(r, 200));
      expect((await q.runs.getRun({ id: runId }))?.status).toBe('waiting');
      await cutListener(b);
      const events = await onB.done;
      expect(ofType(events, 'tool_result')[0]!).toMatchObject({ output: 'woken\n' });
    });

    it('short leases: renewed while the instance lives (nobody adopts its run), adopted by the periodic scan once it stops', async () => {
      const a = await instance('a', { leaseTtlS: 0.3 });
      const b = await instance('b', { leaseTtlS: 0.3 });
      const { runId, sessionId } = await a.runs.start({ messages: [{ role: 'user', content: '$ echo leased' }] });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      // Five TTLs: A renews every 0.1 s, B scans about every 0.3 s and finds nothing to adopt.
      await new Promise((r) => setTimeout(r, 1_500));
      expect(b.runs.isLive(runId)).toBe(false);
      expect(await q.leases.getLease({ runId })).toMatchObject({ owner: 'instance-a' });
      // A stops renewing (its timers and bus stop, as if the process died): B adopts the run.
      await a.close();
      instances.splice(instances.indexOf(a), 1);
      await until(async () => b.runs.isLive(runId), 'B to adopt the run');
      expect(await q.leases.getLease({ runId })).toMatchObject({ owner: 'instance-b' });
      const stream = follow(b.runs, runId, 0);
      const [relay] = await q.relays.listPendingRelays({ runId });
      await b.runs.resolve(relay!.id, { sessionId, response: { approved: true }, decidedBy: 'gina' });
      const events = await stream.done;
      expect(events.map((e) => e.type)).toEqual([
        'tool_call',
        'relay',
        'resumed',
        'relay_resolved',
        'tool_result',
        'text',
        'done',
      ]);
      expect((await q.toolExecutions.listToolExecutions({ runId })).length).toBe(1);
    });

    /** Waits for the run's first pending relay (of `agentId`, default any). */
    async function pendingRelay(runId: string, agentId?: string) {
      let found: Awaited<ReturnType<Queries['relays']['listPendingRelays']>>[number] | undefined;
      await until(
        async () => {
          found = (await q.relays.listPendingRelays({ runId })).find((r) => !agentId || r.agentId === agentId);
          return found !== undefined;
        },
        `a pending relay${agentId ? ` of ${agentId}` : ''}`,
      );
      return found!;
    }

    it('a cancel made through B stops the copy executing on A: cancelled, its relay cancelled, the tool never run', async () => {
      const a = await instance('a');
      const b = await instance('b');
      const { runId } = await a.runs.start({ messages: [{ role: 'user', content: '$ echo never >> cancelled.log' }] });
      const relay = await pendingRelay(runId);
      const onB = follow(b.runs, runId, 0);
      await b.runs.cancel(runId);
      const events = await onB.done;
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.at(-1)!).toMatchObject({ finishReason: 'cancelled' });
      expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
      await until(async () => !a.runs.isLive(runId), 'A to stop the run');
      expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'cancelled' });
      expect(await q.relays.getRelay({ id: relay.id })).toMatchObject({ status: 'cancelled' });
      expect(await q.toolExecutions.listToolExecutions({ runId })).toEqual([]);
      await expect(readFile(path.join(workspace!, 'cancelled.log'), 'utf8')).rejects.toThrow();
      await until(async () => (await q.leases.getLease({ runId }))?.owner === null, 'the lease to be released');
    });

    it('a run executed nowhere (its instance gone, not yet adopted) is ended by the cancelling instance, with `done`', async () => {
      const a = await instance('a');
      const { runId } = await a.runs.start({ messages: [{ role: 'user', content: '$ echo orphan' }] });
      await pendingRelay(runId);
      await a.close();
      instances.splice(instances.indexOf(a), 1);
      await q.leases.releaseLease({ runId, owner: 'instance-a' });
      const b = await instance('b');
      const onB = follow(b.runs, runId, 0);
      await b.runs.cancel(runId);
      const events = await onB.done;
      expect(events.map((e) => e.type)).toEqual(['tool_call', 'relay', 'done']);
      expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'cancelled' });
      expect(await q.relays.listPendingRelays({ runId })).toEqual([]);
      expect(await b.runs.recover()).toEqual([]);
      expect(await q.leases.getLease({ runId })).toMatchObject({ owner: null });
    });

    it('a cancel through B whose notification is lost still reaches A at its next lease renewal', async () => {
      const a = await instance('a', { leaseTtlS: 0.3 });
      const b = await instance('b', { silent: true });
      const { runId } = await a.runs.start({ messages: [{ role: 'user', content: '$ echo late' }] });
      await pendingRelay(runId);
      await b.runs.cancel(runId);
      await until(async () => !a.runs.isLive(runId), 'A to stop the run');
      const events = await q.events.listEvents({ runId });
      expect(events.at(-1)).toMatchObject({ type: 'done', data: { finishReason: 'cancelled' } });
      expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'cancelled' });
    });

    for (const silent of [false, true]) {
      it(`a mode switched through B applies to the run executing on A${silent ? ' (notification lost: at the next renewal)' : ''}`, async () => {
        const a = await instance('a', { leaseTtlS: silent ? 0.3 : 15 });
        const b = await instance('b', { silent });
        // The task call asks; once approved, the reviewer's read outside the workspace would ask too, unless the mode allows it.
        const { runId, sessionId } = await a.runs.start({
          messages: [{ role: 'user', content: 'task reviewer: read /etc/hostname' }],
        });
        const task = await pendingRelay(runId);
        await b.runs.setMode(runId, 'bypassPermissions');
        // The executor re-reads the run on the notice, or at its renewal every 0.1 s.
        await new Promise((r) => setTimeout(r, silent ? 400 : 200));
        const onB = follow(b.runs, runId, 0);
        // Decided on A: a silent B could not wake A's waiter.
        await a.runs.resolve(task.id, { sessionId, response: { approved: true }, decidedBy: 'hana' });
        const events = await onB.done;
        const read = ofType(events, 'tool_call').find((e) => e.name === 'read_file');
        expect(read).toMatchObject({ agentId: 'reviewer', decision: { action: 'allow', reason: 'mode' } });
        expect(events.filter((e) => e.type === 'relay')).toHaveLength(1);
        expect(ofType(events, 'mode_changed')[0]).toMatchObject({ mode: 'bypassPermissions' });
      });
    }

    it('a copy whose lease was taken over stops without settling anything; the adopter finishes the run, the tool runs once', async () => {
      const a = await instance('a', { leaseTtlS: 0.3 });
      const b = await instance('b', { leaseTtlS: 0.3 });
      const { runId, sessionId } = await a.runs.start({
        messages: [{ role: 'user', content: '$ echo once >> taken.log' }],
      });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      const relay = await pendingRelay(runId);
      const before = (await q.events.listEvents({ runId })).length;
      // As if A had been cut off from the database for longer than the TTL and another instance had
      // taken the run: A's renewal (every 0.1 s) finds the lease gone and detaches its copy. Then the
      // lease lapses again and one of the two adopts the run (A may, once its old copy is gone).
      await handle.db.execute(
        sql`UPDATE run_leases SET owner = 'instance-gone', epoch = epoch + 1, expires_at = now() - interval '1 second' WHERE run_id = ${runId}`,
      );
      await until(
        async () =>
          (await q.leases.getLease({ runId }))?.owner !== 'instance-gone' &&
          (a.runs.isLive(runId) || b.runs.isLive(runId)),
        'an instance to adopt the run',
      );
      const executor = a.runs.isLive(runId) ? a : b;
      expect(b.runs.isLive(runId) && a.runs.isLive(runId)).toBe(false);
      // The detached copy settled nothing: the relay is still open for the adopter.
      expect(await q.relays.getRelay({ id: relay.id })).toMatchObject({ status: 'pending' });
      const stream = follow(executor.runs, runId, before);
      await executor.runs.resolve(relay.id, { sessionId, response: { approved: true }, decidedBy: 'ivan' });
      const rest = await stream.done;
      expect(rest.map((e) => e.type)).toEqual(['resumed', 'relay_resolved', 'tool_result', 'text', 'done']);
      expect(await readFile(path.join(workspace!, 'taken.log'), 'utf8')).toBe('once\n');
      expect((await q.toolExecutions.listToolExecutions({ runId })).length).toBe(1);
      expect((await q.leases.getLease({ runId }))?.epoch).toBeGreaterThanOrEqual(3);
    });

    it('shutdown detaches A’s runs and releases their leases; B adopts them at once and finishes them', async () => {
      const a = await instance('a');
      const b = await instance('b');
      const { runId, sessionId } = await a.runs.start({
        messages: [{ role: 'user', content: '$ echo handed >> handed.log' }],
      });
      await until(async () => (await q.runs.getRun({ id: runId }))?.status === 'waiting', 'the run to wait');
      const relay = await pendingRelay(runId);
      let streamClosed = false;
      await a.runs.subscribe(
        runId,
        0,
        () => undefined,
        () => (streamClosed = true),
      );
      expect(await a.runs.shutdown()).toEqual([runId]);
      // Its streams end (their clients reconnect to another instance).
      expect(streamClosed).toBe(true);
      await expect(a.runs.start({ messages: [{ role: 'user', content: 'hi' }] })).rejects.toMatchObject({
        status: 503,
      });
      // Still paused, its relay still open: nothing was settled or stored by the shutdown.
      expect(await q.runs.getRun({ id: runId })).toMatchObject({ status: 'waiting' });
      expect(await q.relays.getRelay({ id: relay.id })).toMatchObject({ status: 'pending' });
      // B's lease TTL is 15 s: only the release notice makes it adopt the run this soon.
      await until(async () => b.runs.isLive(runId), 'B to adopt the released run');
      const stream = follow(b.runs, runId, 0);
      await b.runs.resolve(relay.id, { sessionId, response: { approved: true }, decidedBy: 'jo' });
      const events = await stream.done;
      expect(events.map((e) => e.type)).toEqual([
        'tool_call',
        'relay',
        'resumed',
        'relay_resolved',
        'tool_result',
        'text',
        'done',
      ]);
      expect(await readFile(path.join(workspace!, 'handed.log'), 'utf8')).toBe('handed\n');
    });
  },
);
