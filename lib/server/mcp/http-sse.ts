// Reads a server-sent event stream as the spec reads it, for http-call.ts: lines end at CRLF, LF
// or CR (a CR that ends a chunk waits for the next: it may be a CRLF's half), a blank line ends an
// event, its `data:` lines are joined with LF; only `message` events (or unnamed ones) with data
// are handed on. The last event id and the server's retry time are kept, to resume the stream.
import type { Readable } from 'node:stream';
import { answerTooLarge, connectionFailed, MAX_ANSWER_CHARS } from './http-post';

/** A line's end; a CR that ends the text so far is not one yet. */
const LINE_END = /\r\n|\r(?!$)|\n/g;

export interface SseRead {
  /** The id of the last event with one: where a resumption starts (Last-Event-ID). */
  lastEventId?: string;
  /** The server's `retry:` (ms): how long to wait before resuming. */
  retryMs?: number;
}

/**
 * Hands each message's data to `onMessage` until it returns true (then the stream is let go) or
 * the stream ends; the stream is destroyed either way.
 */
export async function readSse(stream: Readable, onMessage: (data: string) => boolean): Promise<SseRead> {
  const read: SseRead = {};
  let rest = '';
  let event = 'message';
  let data: string[] = [];
  let dataChars = 0;
  /** Takes the complete lines of `text`; true when onMessage had enough. */
  // Chunks with no line-end character only lengthen the line being read: kept apart, joined once a
  // line end comes, and the text before `scanned` is never searched again, so a long line costs
  // time in proportion to its length, not its square.
  let pending: string[] = [];
  let pendingChars = 0;
  let scanned = 0;
  const feed = (text: string): boolean => {
    if (!/[\r\n]/.test(text)) {
      pending.push(text);
      pendingChars += text.length;
      if (rest.length + pendingChars > MAX_ANSWER_CHARS) throw answerTooLarge();
      return false;
    }
    rest += pending.join('') + text;
    [pending, pendingChars] = [[], 0];
    const lineEnd = new RegExp(LINE_END);
    // A CR that ended the text before may be the first half of a CRLF: look at it again.
    lineEnd.lastIndex = Math.max(0, scanned - 1);
    let start = 0;
    let enough = false;
    for (let end = lineEnd.exec(rest); end; end = lineEnd.exec(rest)) {
      const line = rest.slice(start, end.index);
      start = end.index + end[0].length;
      if (line !== '') {
        field(line);
        continue;
      }
      const joined = data.join('\n');
      const named = event;
      [event, data, dataChars] = ['message', [], 0];
      // An event without data is not dispatched (a server's priming event for resumption has none).
      if (named === 'message' && joined !== '' && onMessage(joined)) {
        enough = true;
        break;
      }
    }
    rest = start === 0 ? rest : rest.slice(start);
    scanned = rest.length;
    // One line, or one event's data, beyond what is read into memory.
    if (!enough && (rest.length > MAX_ANSWER_CHARS || dataChars > MAX_ANSWER_CHARS)) throw answerTooLarge();
    return enough;
  };
  const field = (line: string) => {
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'event') event = value;
    else if (name === 'data') {
      data.push(value);
      dataChars += value.length + 1;
    } else if (name === 'id' && !value.includes('\0')) read.lastEventId = value;
    else if (name === 'retry' && /^\d+$/.test(value)) read.retryMs = Number(value);
  };
  stream.setEncoding('utf8');
  try {
    try {
      for await (const chunk of stream as AsyncIterable<string>) if (feed(chunk)) return read;
    } catch (error) {
      // The stream broke off (an abort of the caller's is reported by the caller, not as this).
      throw (error as NodeJS.ErrnoException).code === 'ECONNRESET' ? connectionFailed(error as Error) : error;
    }
    // A CR the stream ended with was a line's end after all.
    if (rest.endsWith('\r')) feed('\n');
    return read;
  } finally {
    stream.destroy();
  }
}
