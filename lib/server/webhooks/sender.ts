// The background webhook sender, one per instance. Relay changes are queued off the decision path
// (`relayChanged` returns at once), and a periodic sweep queues whatever a crash or another code
// path left out, so the queue never depends on the hook firing. Each tick claims due deliveries
// (the database decides which instance sends which), sends them concurrently with a time limit,
// and records success, a retry with exponential backoff, or giving up after `retryForS`.
import type { Queries, WebhookDeliveryRow, WebhookEndpointRow } from '../../db';
import type { WebhookConfig } from '../config';
import { signatureHeader } from './signature';
import { eventBody, renderBody } from './payload';
import { postJson, type PostResult } from './post';
import type { SecretBox } from './secret-box';
import { checkWebhookTarget, type TargetOptions } from './target';

export interface WebhookSenderOptions {
  q: Pick<Queries, 'webhooks' | 'relays'>;
  box: SecretBox;
  config: WebhookConfig;
  publicUrl: string;
  ownPort: number;
  /** How many attempts may be in flight at once, and how many of them for one endpoint. */
  concurrency?: number;
  perEndpoint?: number;
  /** How far back the sweep looks for events not queued yet. */
  sweepWindowMs?: number;
  sweepEveryMs?: number;
  onError?: (error: Error) => void;
}

export class WebhookSender {
  private readonly inFlight = new Set<Promise<void>>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private ticking: Promise<void> | undefined;
  private again = false;
  private lastSweep = 0;
  private stopped = false;
  /** Whether any endpoint exists, as of the last tick (or a registration here). */
  private hasEndpoints = true;

  constructor(private readonly options: WebhookSenderOptions) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.nudge(), this.options.config.pollMs);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.ticking;
    await Promise.allSettled([...this.inFlight]);
  }

  /** A relay was stored or settled: queue its events and send them soon. Never waits, never throws. */
  relayChanged(relayId: string): void {
    // Without endpoints (as last seen: every tick looks again) a relay costs no statement at all.
    if (this.stopped || !this.hasEndpoints) return;
    void this.options.q.webhooks
      .enqueueRelayEvents({ relayId })
      .then((queued) => {
        if (queued > 0) this.nudge();
      })
      .catch((error: Error) => this.report(error));
  }

  /** An endpoint was registered here: relays count from now on, without waiting for a tick. */
  endpointsChanged(): void {
    this.hasEndpoints = true;
  }

  /** Runs a tick now, or right after the running one. */
  nudge(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.tick()
      .catch((error: Error) => this.report(error))
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** Sweeps if due, then claims as many deliveries as there are free slots and starts them. */
  async tick(): Promise<void> {
    const { sweepWindowMs = 10 * 60_000, sweepEveryMs = 10_000 } = this.options;
    this.hasEndpoints = await this.options.q.webhooks.hasEndpoints();
    // No endpoint, no delivery (they go with their endpoint): nothing to sweep or send.
    if (!this.hasEndpoints) return;
    if (Date.now() - this.lastSweep >= sweepEveryMs) {
      this.lastSweep = Date.now();
      await this.options.q.webhooks.enqueueRelayEvents({ withinMs: sweepWindowMs });
    }
    const free = (this.options.concurrency ?? 16) - this.inFlight.size;
    if (free <= 0) return;
    const claimed = await this.options.q.webhooks.claimDue({
      limit: free,
      perEndpoint: this.options.perEndpoint ?? 4,
      // Longer than an attempt can take, so a live sender never loses its claim mid-send.
      lockMs: this.options.config.timeoutMs + 30_000,
    });
    for (const { delivery, endpoint } of claimed) {
      const attempt: Promise<void> = this.attempt(delivery, endpoint)
        .catch((error: Error) => this.report(error))
        .finally(() => {
          this.inFlight.delete(attempt);
          this.nudge(); // a free slot: more may be due
        });
      this.inFlight.add(attempt);
    }
  }

  /**
   * Settles the work under way (tests): the running tick, one that starts after this call (so what
   * is due now gets claimed), and the attempts in flight. It does not wait for "no tick running":
   * when statements take longer than the poll interval, ticks follow each other without a gap.
   */
  async idle(): Promise<void> {
    await Promise.allSettled([this.ticking]);
    this.nudge();
    await Promise.allSettled([this.ticking]);
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async attempt(delivery: WebhookDeliveryRow, endpoint: WebhookEndpointRow): Promise<void> {
    const result = await this.send(delivery, endpoint).catch((error: Error): PostResult => ({
      ok: false,
      error: error.message,
    }));
    const { webhooks } = this.options.q;
    if (result.ok) return webhooks.markDelivered({ id: delivery.id, status: result.status ?? 200 });
    const { retryBaseMs, retryForS } = this.options.config;
    const retryInMs = retryBaseMs * 2 ** Math.min(delivery.attempts - 1, 30);
    const giveUp = Date.now() + retryInMs - delivery.createdAt.getTime() > retryForS * 1000;
    await webhooks.markAttemptFailed({
      id: delivery.id,
      error: result.error ?? 'failed',
      ...(result.status === undefined ? {} : { status: result.status }),
      ...(giveUp ? {} : { retryInMs }),
    });
  }

  private async send(delivery: WebhookDeliveryRow, endpoint: WebhookEndpointRow): Promise<PostResult> {
    const relay = await this.options.q.relays.getRelay({ id: delivery.relayId });
    if (!relay) return { ok: false, error: 'the relay no longer exists' };
    const body = renderBody(endpoint.format, eventBody(delivery.id, delivery.event, relay, this.options.publicUrl));
    // One time limit for the whole attempt, resolving the name included: the claim's lock outlasts it.
    const started = Date.now();
    const target = await checkWebhookTarget(endpoint.url, this.targetOptions());
    const secret = this.options.box.open(endpoint.secret);
    return postJson(
      target,
      body,
      {
        'gatehouse-signature': signatureHeader(secret, body, Math.floor(Date.now() / 1000)),
        'gatehouse-delivery': delivery.id,
        'gatehouse-event': delivery.event,
      },
      Math.max(1, this.options.config.timeoutMs - (Date.now() - started)),
    );
  }

  targetOptions(): TargetOptions {
    return {
      allowPrivate: this.options.config.allowPrivate,
      ownPort: this.options.ownPort,
      publicUrl: this.options.publicUrl,
      resolveTimeoutMs: this.options.config.timeoutMs,
    };
  }

  private report(error: Error): void {
    // Only the message: a secret is never part of one (the box's errors name no value).
    this.options.onError?.(error);
  }
}
