// A small SSE client for API specs: reads a text/event-stream response event by event, so a spec
// can act (approve a relay) while the stream is still open. Comments (`: heartbeat`) are kept in
// `comments`, so a spec can wait for them too.
import { parseSseBlock, type ParsedSseEvent } from '../../lib/contract/sse';
import { withAdminAuth } from './auth';

export type SseEvent = ParsedSseEvent;

export class SseReader {
  /** The comment lines received so far (`connected`, `heartbeat`), without the leading colon. */
  readonly comments: string[] = [];
  private buffer = '';
  private readonly decoder = new TextDecoder();

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  static async open(url: string, init: RequestInit): Promise<{ response: Response; events: SseReader }> {
    // Signed in as the e2e admin unless the caller sent its own Authorization header.
    const response = await fetch(url, withAdminAuth(init));
    if (!response.body) throw new Error(`no body (status ${response.status})`);
    return { response, events: new SseReader(response.body.getReader()) };
  }

  /** The next event, or undefined when the stream ends. */
  async next(): Promise<SseEvent | undefined> {
    for (;;) {
      const block = await this.nextBlock();
      if (block === undefined) return undefined;
      const event = parseSseBlock(block);
      if (event) return event;
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

  /** Reads until a comment with this text arrives (events on the way go to `seen`), or throws when the stream ends. */
  async untilComment(text: string, seen: SseEvent[] = []): Promise<void> {
    for (let from = this.comments.length; ; from = this.comments.length) {
      const block = await this.nextBlock();
      if (block === undefined)
        throw new Error(`stream ended before a ": ${text}" comment; saw comments ${this.comments.join(', ')}`);
      const event = parseSseBlock(block);
      if (event) seen.push(event);
      if (this.comments.indexOf(text, from) >= 0) return;
    }
  }

  async rest(): Promise<SseEvent[]> {
    const events: SseEvent[] = [];
    for (let event = await this.next(); event; event = await this.next()) events.push(event);
    return events;
  }

  /** Stops reading: the server sees the client go away. */
  async cancel(): Promise<void> {
    await this.reader.cancel();
  }

  /** The next block (the text between blank lines), its comments recorded; undefined at the end. */
  private async nextBlock(): Promise<string | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        for (const line of block.split('\n')) if (line.startsWith(':')) this.comments.push(line.slice(1).trim());
        return block;
      }
      const { done, value } = await this.reader.read();
      if (done) return undefined;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }
}
