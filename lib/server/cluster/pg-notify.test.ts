// The LISTEN/NOTIFY bus against a real PostgreSQL (started by lib/db/test-support/postgres.ts).
import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, probePostgres } from '../../db/test-support/postgres';
import {
  backoffDelay,
  encodePayload,
  MAX_PAYLOAD_BYTES,
  notifySql,
  NotifyPayloadError,
  PgNotifyBus,
  type BusSignal,
} from './pg-notify';

describe('notify payloads and backoff', () => {
  it('validates payloads per channel and keeps them small', () => {
    expect(encodePayload('gatehouse_relay', { relayId: 'r1' })).toBe('{"relayId":"r1"}');
    expect(encodePayload('gatehouse_events', { runId: 'run', seq: 3 })).toBe('{"runId":"run","seq":3}');
    expect(() => encodePayload('gatehouse_events', { runId: 'run', seq: -1 })).toThrow(NotifyPayloadError);
    expect(() => encodePayload('gatehouse_relay', { relayId: 'x'.repeat(MAX_PAYLOAD_BYTES) })).toThrow(
      NotifyPayloadError,
    );
    expect(() => encodePayload('other' as 'gatehouse_relay', { relayId: 'r1' })).toThrow(/Unknown notify channel/);
  });

  it('backs off exponentially from the initial delay to the cap, with jitter in the upper half', () => {
    const backoff = { initialMs: 100, maxMs: 5_000 };
    expect([0, 1, 2, 3, 10].map((n) => backoffDelay(n, backoff, () => 1))).toEqual([100, 200, 400, 800, 5_000]);
    expect([0, 1, 10].map((n) => backoffDelay(n, backoff, () => 0))).toEqual([50, 100, 2_500]);
  });
});

const postgres = await probePostgres();
if (!postgres.url && process.env.CI === 'true')
  throw new Error(`PostgreSQL is required under CI=true: ${postgres.reason}`);

/** A TCP relay in front of PostgreSQL that can be cut and restored: "the database went away". */
async function startProxy(
  target: URL,
): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  let port = 0;
  const open = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((downstream) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [downstream, upstream]) {
          sockets.add(socket);
          socket.on('error', () => undefined);
          socket.on('close', () => {
            sockets.delete(socket);
            downstream.destroy();
            upstream.destroy();
          });
        }
        downstream.pipe(upstream).pipe(downstream);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const cut = async () => {
    const closing = new Promise<void>((resolve) => server!.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closing;
  };
  await open();
  return { port, cut, restore: open, close: cut };
}

describe.skipIf(!postgres.url)(
  `PgNotifyBus on PostgreSQL${postgres.url ? '' : ` (no PostgreSQL: ${postgres.reason})`}`,
  () => {
    let url = '';
    let drop: (() => Promise<void>) | undefined;
    let admin: pg.Client;
    const buses: PgNotifyBus[] = [];

    beforeAll(async () => {
      const scratch = await createScratchDatabase(postgres.url!);
      url = scratch.url;
      drop = scratch.drop;
      admin = new pg.Client({ connectionString: url });
      await admin.connect();
    }, 30_000);

    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
    });

    afterAll(async () => {
      await admin?.end();
      await drop?.();
    });

    function open(options: Partial<ConstructorParameters<typeof PgNotifyBus>[0]> = {}) {
      const errors: Error[] = [];
      const signals: BusSignal[] = [];
      const applicationName = `gatehouse-test-${randomBytes(4).toString('hex')}`;
      const bus = new PgNotifyBus({
        connectionString: url,
        applicationName,
        backoff: { initialMs: 20, maxMs: 200 },
        onError: (e) => errors.push(e),
        ...options,
      });
      for (const signal of ['connected', 'reconnected', 'disconnected'] as const)
        bus.on(signal, () => signals.push(signal));
      buses.push(bus);
      return { bus, errors, signals, applicationName };
    }

    it('delivers a notification from another connection to a subscriber, validated, and ignores malformed ones', async () => {
      const { bus, errors } = open();
      const relays: unknown[] = [];
      const events: unknown[] = [];
      await bus.subscribe('gatehouse_relay', (p) => void relays.push(p));
      await bus.subscribe('gatehouse_events', (p) => void events.push(p));
      await bus.ready();
      expect(bus.state).toBe('connected');
      await admin.query(`SELECT pg_notify('gatehouse_relay', 'not json'), pg_notify('gatehouse_relay', '{"id":"x"}')`);
      await admin.query(`SELECT pg_notify('gatehouse_relay', '{"relayId":"rel-1","extra":true}')`);
      await admin.query(`SELECT pg_notify('gatehouse_events', '{"runId":"run-1","seq":7}')`);
      await expect.poll(() => events).toEqual([{ runId: 'run-1', seq: 7 }]);
      expect(relays).toEqual([{ relayId: 'rel-1' }]);
      expect(errors.filter((e) => e instanceof NotifyPayloadError)).toHaveLength(2);
    });

    it('sends with notify() and with notifySql inside a transaction, delivered only on commit', async () => {
      const { bus } = open();
      const seen: string[] = [];
      await bus.subscribe('gatehouse_relay', ({ relayId }) => void seen.push(relayId));
      await bus.ready();
      await bus.notify('gatehouse_relay', { relayId: 'from-bus' });
      await expect.poll(() => seen).toEqual(['from-bus']);

      const writer = new pg.Client({ connectionString: url });
      await writer.connect();
      try {
        const statement = notifySql('gatehouse_relay', { relayId: 'in-tx' });
        const { sql: text, params } = new PgDialect().sqlToQuery(statement);
        await writer.query('BEGIN');
        await writer.query(text, params as unknown[]);
        await admin.query(`SELECT pg_notify('gatehouse_relay', '{"relayId":"outside"}')`);
        await expect.poll(() => seen).toEqual(['from-bus', 'outside']);
        await writer.query('COMMIT');
        await expect.poll(() => seen).toEqual(['from-bus', 'outside', 'in-tx']);
      } finally {
        await writer.end();
      }
    });

    it('reconnects after its backend is killed, re-LISTENs, signals it, and hears later notifications', async () => {
      const { bus, signals } = open();
      const seen: string[] = [];
      await bus.subscribe('gatehouse_relay', ({ relayId }) => void seen.push(relayId));
      await bus.ready();
      const pid = bus.backendPid;
      expect(pid).toBeTypeOf('number');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await expect.poll(() => signals, { timeout: 10_000 }).toEqual(['connected', 'disconnected', 'reconnected']);
      expect(bus.state).toBe('connected');
      expect(bus.backendPid).not.toBe(pid);
      await admin.query(`SELECT pg_notify('gatehouse_relay', '{"relayId":"after"}')`);
      await expect.poll(() => seen).toEqual(['after']);
    });

    it('keeps retrying while the database is unreachable and recovers when it returns', async () => {
      const target = new URL(url);
      const proxy = await startProxy(target);
      try {
        const through = new URL(url);
        through.hostname = '127.0.0.1';
        through.port = String(proxy.port);
        const { bus, signals } = open({ connectionString: through.toString(), pingMs: 200 });
        const seen: string[] = [];
        await bus.subscribe('gatehouse_events', ({ runId }) => void seen.push(runId));
        await bus.ready();
        await proxy.cut();
        await expect.poll(() => signals).toEqual(['connected', 'disconnected']);
        expect(bus.state).toBe('disconnected');
        // Subscribing while down does not hang; the reconnect LISTENs the channel.
        const relays: string[] = [];
        await bus.subscribe('gatehouse_relay', ({ relayId }) => void relays.push(relayId));
        await proxy.restore();
        await expect.poll(() => signals, { timeout: 10_000 }).toEqual(['connected', 'disconnected', 'reconnected']);
        await admin.query(
          `SELECT pg_notify('gatehouse_events', '{"runId":"back","seq":1}'), pg_notify('gatehouse_relay', '{"relayId":"r"}')`,
        );
        await expect.poll(() => [seen, relays]).toEqual([['back'], ['r']]);
      } finally {
        await proxy.close();
      }
    });

    it('stops delivering after unsubscribe, and close() ends its connections and refuses further use', async () => {
      const { bus, applicationName } = open();
      const seen: string[] = [];
      const unsubscribe = await bus.subscribe('gatehouse_relay', ({ relayId }) => void seen.push(relayId));
      const events: number[] = [];
      await bus.subscribe('gatehouse_events', ({ seq }) => void events.push(seq));
      await bus.ready();
      await bus.notify('gatehouse_relay', { relayId: 'one' }); // opens the bus's own pool connection too
      await expect.poll(() => seen).toEqual(['one']);
      unsubscribe();
      await admin.query(
        `SELECT pg_notify('gatehouse_relay', '{"relayId":"two"}'), pg_notify('gatehouse_events', '{"runId":"x","seq":1}')`,
      );
      await expect.poll(() => events).toEqual([1]);
      expect(seen).toEqual(['one']);

      const connections = async () =>
        (
          await admin.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
            [applicationName],
          )
        ).rows[0]!.n;
      expect(await connections()).toBe(2);
      await bus.close();
      expect(bus.state).toBe('closed');
      await expect.poll(connections).toBe(0);
      await admin.query(`SELECT pg_notify('gatehouse_events', '{"runId":"x","seq":2}')`);
      await expect(bus.notify('gatehouse_relay', { relayId: 'late' })).rejects.toThrow(/closed/);
      await expect(bus.subscribe('gatehouse_relay', () => undefined)).rejects.toThrow(/closed/);
      await bus.close(); // idempotent
      expect(events).toEqual([1]);
    });
  },
);
