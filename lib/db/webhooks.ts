// Webhook endpoints and their delivery queue. Every instance may enqueue and send: the unique
// (endpoint, relay, event) index makes an event queued once, and a claim is one conditional UPDATE
// that pushes `locked_until` forward, so one instance at a time sends a delivery (the database
// decides). A sender that dies mid-send loses its lock when it runs out: at least once, never lost.
import { randomUUID } from 'node:crypto';
import { and, desc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database } from './database';
import { olderThan, toPage, type Page } from './pagination';
import { rowOfColumns, rowsOf } from './statement';
import {
  webhookDeliveries,
  webhookEndpoints,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  type WebhookEvent,
  type WebhookFormat,
} from './schema';

export interface CreateEndpointInput {
  url: string;
  events: WebhookEvent[];
  format: WebhookFormat;
  /** The signing secret as stored (already encrypted by the caller). */
  secret: string;
  createdBy: string;
}

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  endpoint: WebhookEndpointRow;
}

const deliveryColumns = getTableColumns(webhookDeliveries);

/** Which relays to look at when enqueueing: one (just stored or settled), or every recent one (the sweep). */
export type EnqueueScope = { relayId: string } | { withinMs: number };

export function webhookQueries(db: Database) {
  return {
    async createEndpoint(input: CreateEndpointInput): Promise<WebhookEndpointRow> {
      const [row] = await db
        .insert(webhookEndpoints)
        .values({ id: randomUUID(), ...input })
        .returning();
      return row!;
    },

    async hasEndpoints(): Promise<boolean> {
      const rows = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).limit(1);
      return rows.length > 0;
    },

    async listEndpoints(): Promise<WebhookEndpointRow[]> {
      return db.select().from(webhookEndpoints).orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
    },

    async getEndpoint({ id }: { id: string }): Promise<WebhookEndpointRow | undefined> {
      const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
      return row;
    },

    /** Deletes the endpoint and (cascade) its deliveries; false when there was none. */
    async deleteEndpoint({ id }: { id: string }): Promise<boolean> {
      const rows = await db
        .delete(webhookEndpoints)
        .where(eq(webhookEndpoints.id, id))
        .returning({ id: webhookEndpoints.id });
      return rows.length > 0;
    },

    /**
     * Queues the events of the relays in `scope` for every endpoint that listens to them and
     * existed when they happened: `relay.created` at creation, then `relay.expired` or
     * `relay.resolved` (approved, denied, cancelled) once settled. Idempotent: returns how many were new.
     */
    async enqueueRelayEvents(scope: EnqueueScope): Promise<number> {
      const where =
        'relayId' in scope
          ? sql`r.id = ${scope.relayId}`
          : sql`(r.created_at > now() - make_interval(secs => ${scope.withinMs / 1000})
              OR r.decided_at > now() - make_interval(secs => ${scope.withinMs / 1000}))`;
      const result = await db.execute(sql`
        INSERT INTO webhook_deliveries (id, endpoint_id, relay_id, event)
        SELECT gen_random_uuid()::text, e.id, r.id, ev.kind
        FROM relays r
        CROSS JOIN LATERAL (VALUES
          ('relay.created', r.created_at),
          (CASE WHEN r.status = 'expired' THEN 'relay.expired' ELSE 'relay.resolved' END,
           CASE WHEN r.status = 'pending' THEN NULL ELSE r.decided_at END)
        ) AS ev(kind, at)
        JOIN webhook_endpoints e ON ev.kind = ANY(e.events) AND ev.at >= e.created_at
        WHERE ${where} AND ev.at IS NOT NULL
        ON CONFLICT (endpoint_id, relay_id, event) DO NOTHING
        RETURNING id`);
      return rowsOf(result).length;
    },

    /**
     * Claims up to `limit` due deliveries, locked for `lockMs`, and counts the attempt. An endpoint
     * gets at most `perEndpoint` attempts at once, counting those already under way (on any
     * instance), and free slots go round the endpoints (each one's first before anyone's second):
     * a receiver that never answers holds its few slots and no more, however much it has queued.
     * The UPDATE checks again, on the row as committed, that it is due and free: another instance
     * may have attempted it and scheduled it for later while this statement waited for the row.
     */
    async claimDue({
      limit,
      perEndpoint,
      lockMs,
    }: {
      limit: number;
      perEndpoint: number;
      lockMs: number;
    }): Promise<ClaimedDelivery[]> {
      const result = await db.execute(sql`
        WITH busy AS (
          SELECT endpoint_id, count(*) AS n FROM webhook_deliveries
          WHERE status = 'pending' AND locked_until > now()
          GROUP BY endpoint_id
        ), due AS (
          SELECT id FROM (
            SELECT d.id, d.next_attempt_at,
              coalesce(b.n, 0) + row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS n
            FROM webhook_deliveries d LEFT JOIN busy b ON b.endpoint_id = d.endpoint_id
            WHERE d.status = 'pending' AND d.next_attempt_at <= now()
              AND (d.locked_until IS NULL OR d.locked_until <= now())
          ) ranked WHERE n <= ${perEndpoint}
          ORDER BY n, next_attempt_at, id
          LIMIT ${limit}
        )
        UPDATE webhook_deliveries d
        SET locked_until = now() + make_interval(secs => ${lockMs / 1000}), attempts = d.attempts + 1
        FROM due
        WHERE d.id = due.id AND d.status = 'pending' AND d.next_attempt_at <= now()
          AND (d.locked_until IS NULL OR d.locked_until <= now())
        RETURNING d.*`);
      const deliveries = rowsOf<Record<string, unknown>>(result).map((raw) =>
        rowOfColumns<WebhookDeliveryRow>(deliveryColumns, raw),
      );
      if (deliveries.length === 0) return [];
      const endpoints = new Map((await db.select().from(webhookEndpoints)).map((e) => [e.id, e]));
      return deliveries.flatMap((delivery) => {
        const endpoint = endpoints.get(delivery.endpointId);
        return endpoint ? [{ delivery, endpoint }] : [];
      });
    },

    async markDelivered({ id, status }: { id: string; status: number }): Promise<void> {
      await db
        .update(webhookDeliveries)
        .set({ status: 'delivered', lastStatus: status, lastError: null, lockedUntil: null, deliveredAt: sql`now()` })
        .where(eq(webhookDeliveries.id, id));
    },

    /** A failed attempt: retried after `retryInMs`, or given up (`failed`) when that is undefined. */
    async markAttemptFailed({
      id,
      status,
      error,
      retryInMs,
    }: {
      id: string;
      status?: number;
      error: string;
      retryInMs?: number;
    }): Promise<void> {
      await db
        .update(webhookDeliveries)
        .set({
          lastStatus: status ?? null,
          lastError: error.slice(0, 500),
          lockedUntil: null,
          ...(retryInMs === undefined
            ? { status: 'failed' as const }
            : { nextAttemptAt: sql`now() + make_interval(secs => ${retryInMs / 1000})` }),
        })
        .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')));
    },

    /** An endpoint's deliveries, newest first. */
    async listDeliveries({
      endpointId,
      limit,
      cursor,
    }: {
      endpointId: string;
      limit: number;
      cursor?: string;
    }): Promise<Page<WebhookDeliveryRow>> {
      const rows = await db
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.endpointId, endpointId),
            olderThan(webhookDeliveries.createdAt, webhookDeliveries.id, cursor),
          ),
        )
        .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
        .limit(limit + 1);
      return toPage(rows, limit, (row) => ({ at: row.createdAt, id: row.id }));
    },
  };
}

export type WebhookQueries = ReturnType<typeof webhookQueries>;
