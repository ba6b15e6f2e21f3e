// A small SSE client for API specs: reads a text/event-stream response event by event, so a spec
// can act (approve a relay) while the stream is still open.
import { parseSseBlock, type ParsedSseEvent } from '../../lib/client/sse-parse';

export type SseEvent = ParsedSseEvent;

export class SseReader {
  private buffer = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  static async open(url: string, init: RequestInit): Promise<{ response: Response; events: SseReader }> {
    const response = await fetch(url, init);
    if (!response.body) throw new Error(`no body (status ${response.status})`);
    return { response, events: new SseReader(response.body.getReader()) };
  }

  /** The next event, or undefined when the stream ends. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event = parseSseBlock(block);
        if (event) return event;
        continue;
      }
      const { done, value } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** Reads until an event of this type arrives (returning it), or throws when the stream ends. */
  async until(type: string, seen: SseEvent[] = []): Promise<SseEvent> {
    for (;;) {
      const event = await this.next();
      if (!event) throw new Error(`stream ended before a "${type}" event; saw ${seen.map((e) => e.event).join(', ')}`);
      seen.push(event);
      if (event.event === type) return event;
    }
  }

  async rest(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) events.push(event);
    return events;
  }
}
