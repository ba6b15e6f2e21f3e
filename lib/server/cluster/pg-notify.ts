// LISTEN/NOTIFY between instances sharing one PostgreSQL (issue 7, docs/DEPLOY.md). Payloads are
// pointers only (a relay id, a run id and seq): the database row is the truth, a notification just
// says "re-read". One dedicated connection per process listens; when it drops, the bus reconnects
// with jittered exponential backoff, re-LISTENs every channel and emits `reconnected`, because
// notifications sent while it was away are lost and subscribers must re-read what they follow.
import { sql, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { z } from 'zod';

const id = z.string().min(1).max(500);
const SCHEMAS = {
  /** A relay was settled (approved, denied, expired, cancelled): waiters re-read it. */
  gatehouse_relay: z.object({ relayId: id }),
  /** Events up to `seq` were appended to a run's log: streams re-read after their last seq. */
  gatehouse_events: z.object({ runId: id, seq: z.number().int().nonnegative() }),
  /**
   * A run was changed by another instance than its executor (`control`: cancelled or its mode
   * switched: the executor re-reads the run), or its lease was released (`released`: the others
   * adopt it now instead of after the TTL).
   */
  gatehouse_run: z.object({ runId: id, change: z.enum(['control', 'released']) }),
  /**
   * A user's account, API tokens or sessions were changed by instance `from`: the others drop
   * their cached credentials, and their streams of that user (of anyone without `userId`) re-check.
   */
  gatehouse_credentials: z.object({ from: id, userId: id.optional() }),
  /** The shadow policy was set, cleared or promoted by instance `from`: the others re-read it. */
  gatehouse_shadow: z.object({ from: id }),
};

export type NotifyChannel = keyof typeof SCHEMAS;
export type NotifyPayload<C extends NotifyChannel> = z.infer<(typeof SCHEMAS)[C]>;

/** PostgreSQL refuses a payload of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7999;

export class NotifyPayloadError extends Error {
  readonly code = 'invalid_notify_payload';
}

function schemaOf(channel: string) {
  if (!Object.hasOwn(SCHEMAS, channel)) throw new NotifyPayloadError(`Unknown notify channel "${channel}"`);
  return SCHEMAS[channel as NotifyChannel];
}

/** The payload as sent: validated, JSON, under PostgreSQL's size limit. */
export function encodePayload<C extends NotifyChannel>(channel: C, payload: NotifyPayload<C>): string {
  const parsed = schemaOf(channel).safeParse(payload);
  if (!parsed.success)
    throw new NotifyPayloadError(`Invalid ${channel} payload: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  const text = JSON.stringify(parsed.data);
  if (Buffer.byteLength(text, 'utf8') > MAX_PAYLOAD_BYTES)
    throw new NotifyPayloadError(`${channel} payload exceeds ${MAX_PAYLOAD_BYTES} bytes`);
  return text;
}

/**
 * `SELECT pg_notify(...)` for a transaction that also writes: PostgreSQL delivers it only if and
 * when that transaction commits, so nobody hears of a row before it is stored.
 */
export function notifySql<C extends NotifyChannel>(channel: C, payload: NotifyPayload<C>): SQL {
  return sql`SELECT pg_notify(${channel}, ${encodePayload(channel, payload)})`;
}

export interface Backoff {
  initialMs: number;
  maxMs: number;
}

/** Equal jitter: half the exponential delay fixed, half random, so instances do not reconnect in step. */
export function backoffDelay(
  attempt: number,
  { initialMs, maxMs }: Backoff,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export type BusState = 'connecting' | 'connected' | 'disconnected' | 'closed';
export type BusSignal = 'connected' | 'reconnected' | 'disconnected';
type Handler<C extends NotifyChannel> = (payload: NotifyPayload<C>) => void | Promise<void>;

export interface PgNotifyBusOptions {
  connectionString: string;
  /** Runs the NOTIFY statements; default: a one-connection pool of the bus's own. */
  execute?: (statement: SQL) => Promise<unknown>;
  backoff?: Partial<Backoff>;
  /** How often the listening connection is checked with `SELECT 1` (a half-open TCP connection says nothing); 0: never. */
  pingMs?: number;
  /** Shows in pg_stat_activity. */
  applicationName?: string;
  /** Where swallowed errors go (bad payloads, failing handlers, lost connections). */
  onError?: (error: Error) => void;
}

export class PgNotifyBus {
  private readonly inFlight = new WeakMap<pg.Client, Promise<unknown>>();
  private readonly handlers = new Map<NotifyChannel, Set<Handler<NotifyChannel>>>();
  private readonly signals = new Map<BusSignal, Set<() => void>>();
  private client: pg.Client | undefined;
  private listened = new Map<NotifyChannel, Promise<void>>();
  private current: BusState = 'connecting';
  private everConnected = false;
  private connecting: Promise<void> | undefined;
  private sleeping: { wake(): void } | undefined;
  private readonly ping: ReturnType<typeof setInterval> | undefined;
  private readonly ownPool: pg.Pool | undefined;
  private readonly execute: (statement: SQL) => Promise<unknown>;
  private readonly backoff: Backoff;
  private readonly onError: (error: Error) => void;
  /** The listening connection's backend pid (for diagnostics and tests). */
  backendPid: number | undefined;

  constructor(private readonly options: PgNotifyBusOptions) {
    this.backoff = { initialMs: options.backoff?.initialMs ?? 100, maxMs: options.backoff?.maxMs ?? 5_000 };
    this.onError = options.onError ?? (() => undefined);
    if (options.execute) this.execute = options.execute;
    else {
      const pool = new pg.Pool({
        connectionString: options.connectionString,
        max: 1,
        application_name: this.appName('notify'),
      });
      pool.on('error', () => undefined);
      this.ownPool = pool;
      const db = drizzle({ client: pool });
      this.execute = (statement) => db.execute(statement);
    }
    const pingMs = options.pingMs ?? 30_000;
    if (pingMs > 0) {
      this.ping = setInterval(() => void this.checkConnection(pingMs), pingMs);
      this.ping.unref?.();
    }
    this.connecting = this.connectLoop();
  }

  get state(): BusState {
    return this.current;
  }

  /** Resolves once LISTEN is in effect for `channel` (at once while disconnected: the reconnect LISTENs it). */
  async subscribe<C extends NotifyChannel>(channel: C, handler: Handler<C>): Promise<() => void> {
    if (this.closed()) throw new Error('The notify bus is closed');
    schemaOf(channel);
    const set = this.handlers.get(channel) ?? new Set();
    set.add(handler as Handler<NotifyChannel>);
    this.handlers.set(channel, set);
    await this.listen(channel);
    return () => {
      if (!set.delete(handler as Handler<NotifyChannel>) || set.size > 0 || this.handlers.get(channel) !== set) return;
      this.handlers.delete(channel);
      this.listened.delete(channel);
      if (this.client) this.query(this.client, `UNLISTEN ${channel}`).catch(() => undefined);
    };
  }

  /** `connected` (first time), `reconnected` (after a loss: re-read what you follow), `disconnected`. */
  on(signal: BusSignal, fn: () => void): () => void {
    const set = this.signals.get(signal) ?? new Set();
    set.add(fn);
    this.signals.set(signal, set);
    return () => set.delete(fn);
  }

  /** Resolves when the listening connection is up (now, or after the next reconnect). */
  ready(): Promise<void> {
    if (this.current === 'connected') return Promise.resolve();
    if (this.closed()) return Promise.reject(new Error('The notify bus is closed'));
    return new Promise((resolve) => {
      const offs = [this.on('connected', done), this.on('reconnected', done)];
      function done() {
        for (const off of offs) off();
        resolve();
      }
    });
  }

  /** Sends on the pool (autocommit). Inside a writing transaction use `notifySql` instead. */
  async notify<C extends NotifyChannel>(channel: C, payload: NotifyPayload<C>): Promise<void> {
    if (this.closed()) throw new Error('The notify bus is closed');
    await this.execute(notifySql(channel, payload));
  }

  async close(): Promise<void> {
    if (this.closed()) return;
    this.current = 'closed';
    if (this.ping) clearInterval(this.ping);
    this.sleeping?.wake();
    this.handlers.clear();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    await this.connecting?.catch(() => undefined);
    await this.ownPool?.end().catch(() => undefined);
  }

  /** A method, not an inline comparison: the state changes across awaits, which TypeScript's narrowing ignores. */
  private closed(): boolean {
    return this.current === 'closed';
  }

  private appName(role: string): string {
    return (this.options.applicationName ?? `gatehouse-${role}`).slice(0, 63);
  }

  /** One statement at a time on the listening connection (pg 9 will no longer queue them itself). */
  private query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    client: pg.Client,
    text: string,
  ): Promise<pg.QueryResult<R>> {
    const previous = this.inFlight.get(client) ?? Promise.resolve();
    const next = previous.then(() => client.query<R>(text));
    this.inFlight.set(
      client,
      next.catch(() => undefined),
    );
    return next;
  }

  private listen(channel: NotifyChannel): Promise<void> {
    const client = this.client;
    if (!client) return Promise.resolve();
    let pending = this.listened.get(channel);
    if (!pending) {
      // Channel names are the fixed keys of SCHEMAS (lower-case identifiers): safe unquoted.
      pending = this.query(client, `LISTEN ${channel}`).then(
        () => undefined,
        (error: Error) => this.onError(error), // the connection is going; the reconnect LISTENs again
      );
      this.listened.set(channel, pending);
    }
    return pending;
  }

  private async connectLoop(): Promise<void> {
    for (let attempt = 0; !this.closed(); attempt++) {
      if (attempt > 0) await this.sleep(backoffDelay(attempt - 1, this.backoff));
      if (this.closed()) return;
      const client = new pg.Client({
        connectionString: this.options.connectionString,
        application_name: this.appName('listen'),
        keepAlive: true,
        connectionTimeoutMillis: 5_000,
      });
      client.on('error', (error) => this.drop(client, error));
      client.on('end', () => this.drop(client));
      client.on('notification', (message) => this.dispatch(message));
      try {
        await client.connect();
        const { rows } = await this.query<{ pid: number }>(client, 'SELECT pg_backend_pid() AS pid');
        if (this.closed()) {
          await client.end().catch(() => undefined);
          return;
        }
        this.client = client;
        this.listened = new Map();
        this.backendPid = rows[0]?.pid;
        await Promise.all([...this.handlers.keys()].map((channel) => this.listen(channel)));
        if (this.client !== client) continue; // lost while LISTENing: try again
        this.current = 'connected';
        this.emit(this.everConnected ? 'reconnected' : 'connected');
        this.everConnected = true;
        return;
      } catch (error) {
        this.onError(error as Error);
        if (this.client === client) this.client = undefined;
        await client.end().catch(() => undefined);
        if (!this.closed()) this.current = this.everConnected ? 'disconnected' : 'connecting';
      }
    }
  }

  private drop(client: pg.Client, error?: Error): void {
    if (error) this.onError(error);
    if (this.client !== client) return;
    this.client = undefined;
    this.backendPid = undefined;
    client.end().catch(() => undefined);
    if (this.closed()) return;
    const wasConnected = this.current === 'connected';
    this.current = 'disconnected';
    if (wasConnected) this.emit('disconnected');
    // Not already reconnecting (a drop during connectLoop is seen by the loop itself).
    if (wasConnected) this.connecting = this.connectLoop();
  }

  private async checkConnection(timeoutMs: number): Promise<void> {
    const client = this.client;
    if (!client || this.current !== 'connected') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        this.query(client, 'SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('The notify connection did not answer a ping')), timeoutMs);
        }),
      ]);
    } catch (error) {
      this.drop(client, error as Error);
    } finally {
      clearTimeout(timer);
    }
  }

  private dispatch(message: pg.Notification): void {
    const channel = message.channel as NotifyChannel;
    const set = this.handlers.get(channel);
    if (!set) return;
    let payload: unknown;
    try {
      payload = schemaOf(channel).parse(JSON.parse(message.payload ?? ''));
    } catch (error) {
      this.onError(new NotifyPayloadError(`Ignored a malformed ${channel} notification: ${(error as Error).message}`));
      return;
    }
    for (const handler of [...set]) {
      try {
        void Promise.resolve(handler(payload as NotifyPayload<NotifyChannel>)).catch((error: Error) =>
          this.onError(error),
        );
      } catch (error) {
        this.onError(error as Error);
      }
    }
  }

  private emit(signal: BusSignal): void {
    for (const fn of [...(this.signals.get(signal) ?? [])]) {
      try {
        fn();
      } catch (error) {
        this.onError(error as Error);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleeping = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.sleeping = { wake };
    });
  }
}
