// The benchmark's HTTP client (after e2e/support/sse.ts): SSE streams that stamp each event with
// its receipt time, and the three requests a probe makes (start a run, follow a run, decide a relay).
import { parseSseBlock } from '../../lib/contract/sse';
import { wallMs } from './clock';
import { AUTH, STEP_TIMEOUT_MS } from './config';
import { DecisionClient, type Answered } from './decision-client';

export interface Received {
  id?: number;
  event: string;
  data: Record<string, unknown>;
  /** Client CLOCK_REALTIME (ms) when the chunk holding the event was read. */
  at: number;
}

export class SseStream {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  private chunkAt = 0;
  readonly seen: string[] = [];

  constructor(
    private readonly reader: ReadableStreamDefaultReader<Uint8Array>,
    private readonly controller: AbortController,
  ) {}

  private async next(): Promise<Received | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event = parseBlock(block, this.chunkAt);
        if (event) return event;
        continue;
      }
      if (!(await this.read())) return undefined;
    }
  }

  /** Reads one chunk into the buffer; false at the end of the stream. */
  private async read(): Promise<boolean> {
    const { done, value } = await this.reader.read();
    this.chunkAt = wallMs();
    if (done) return false;
    this.buffer += this.decoder.decode(value, { stream: true });
    return true;
  }

  /** Reads until an event of this type (returned); throws when the stream ends or after timeoutMs. */
  async until(type: string, timeoutMs = STEP_TIMEOUT_MS): Promise<Received> {
    return this.timed(`no "${type}" event within ${timeoutMs / 1000} s`, timeoutMs, async () => {
      for (;;) {
        const event = await this.next();
        if (!event) throw new Error(`stream ended before a "${type}" event; saw ${this.seen.join(', ') || 'nothing'}`);
        this.seen.push(event.event);
        if (event.event === 'error') throw new Error(`error event: ${JSON.stringify(event.data)}`);
        if (event.event === type) return event;
      }
    });
  }

  /** Waits for the first bytes of the body (the server's `: connected` comment), unless some arrived. */
  async opened(timeoutMs = STEP_TIMEOUT_MS): Promise<void> {
    if (this.buffer !== '') return;
    await this.timed(`no data within ${timeoutMs / 1000} s`, timeoutMs, async () => {
      if (!(await this.read())) throw new Error('the stream ended before any data');
    });
  }

  private async timed<T>(message: string, timeoutMs: number, body: () => Promise<T>): Promise<T> {
    const timer = setTimeout(() => this.controller.abort(new Error(message)), timeoutMs);
    try {
      return await body();
    } catch (error) {
      const reason: unknown = this.controller.signal.reason;
      throw this.controller.signal.aborted && reason instanceof Error ? reason : error;
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    this.controller.abort();
    this.reader.cancel().catch(() => undefined);
  }
}

function parseBlock(block: string, at: number): Received | undefined {
  const event = parseSseBlock(block);
  return event ? { ...event, at } : undefined;
}

/** Opens an SSE response (status 200 and a body, within STEP_TIMEOUT_MS) as a stream. */
async function openStream(what: string, url: string, init: RequestInit): Promise<SseStream> {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new Error(`${what}: no response within ${STEP_TIMEOUT_MS / 1000} s`)),
    STEP_TIMEOUT_MS,
  );
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    if (!response.ok || !response.body)
      throw new Error(`${what}: status ${response.status} ${(await response.text()).slice(0, 200)}`);
    return new SseStream(response.body.getReader(), controller);
  } catch (error) {
    const reason: unknown = controller.signal.reason;
    throw controller.signal.aborted && reason instanceof Error ? reason : error;
  } finally {
    clearTimeout(timer);
  }
}

/** POST /api/chat: starts a run and returns its event stream (the first event is `connected`). */
export function startRun(base: string, content: string): Promise<SseStream> {
  return openStream('POST /api/chat', `${base}/api/chat`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...AUTH },
    body: JSON.stringify({ messages: [{ role: 'user', content }] }),
  });
}

/** GET /api/runs/:id/events from the start of the log: any instance serves any run's events. */
export function followRun(base: string, runId: string): Promise<SseStream> {
  return openStream('GET /api/runs/:id/events', `${base}/api/runs/${runId}/events`, {
    headers: { ...AUTH, 'Last-Event-ID': '0' },
  });
}

const decisionClients = new Map<string, DecisionClient>();

/**
 * POST /api/chat/relay/:id approving the relay, timed from the moment its bytes are written to a
 * kept-alive connection (decision-client.ts): what the probes time decision -> start from.
 */
export async function decide(base: string, relayId: string, sessionId: string): Promise<Answered> {
  let client = decisionClients.get(base);
  if (!client) decisionClients.set(base, (client = new DecisionClient(base)));
  const answered = await client.post(
    `/api/chat/relay/${relayId}`,
    { 'Content-Type': 'application/json', ...AUTH },
    JSON.stringify({ sessionId, response: { approved: true } }),
  );
  if (answered.status !== 200)
    throw new Error(`POST /api/chat/relay: status ${answered.status} ${answered.body.slice(0, 200)}`);
  return answered;
}

/** Closes the decision connections (before a server is stopped). */
export function closeDecisionClients(): void {
  for (const client of decisionClients.values()) client.close();
  decisionClients.clear();
}

/** POST /api/chat/relay/:id approving the relay (fetch, for concurrent decisions); resolves when the response arrived. */
export function approve(
  base: string,
  relayId: string,
  sessionId: string,
  timeoutMs = STEP_TIMEOUT_MS,
): Promise<Response> {
  return fetch(`${base}/api/chat/relay/${relayId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...AUTH },
    body: JSON.stringify({ sessionId, response: { approved: true } }),
    signal: AbortSignal.timeout(timeoutMs),
  });
}
