// One POST (or the GET that resumes a stream) over kept-alive connections (http-wire.ts), for
// http-call.ts: no fetch, no Response, no Web streams, not even node's ClientRequest. The global
// fetch (which Next patches for its data cache and tracing) and the Response and stream objects
// around it cost several times the round trip to a local server, in a process where every promise
// pays for async context tracking. A JSON answer (or an error status) is read whole as text; any
// other answer (an SSE stream) is handed over as a stream of its body, as it arrives.
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { wireRequest, type WireCall } from './http-wire';

/**
 * The most of an answer read into memory (characters of a JSON answer, of an SSE event): a server
 * that sends more fails the call rather than the process. An McpError, as a refused answer is, not
 * a broken connection: the server stays in use.
 */
export const MAX_ANSWER_CHARS = 16 * 1024 * 1024;
export const answerTooLarge = () =>
  new McpError(ErrorCode.InternalError, `The server's answer is larger than ${MAX_ANSWER_CHARS} characters: not read`);

export interface PostAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, for a JSON answer or an error status. */
  text?: string;
  /**
   * The body as it arrives, otherwise (the caller reads or destroys it; an abort or a cut
   * connection destroys it with an Error `aborted`, code ECONNRESET, as node's IncomingMessage).
   */
  stream?: Readable;
}

/** The media type without parameters, lower-cased ('' when absent). */
export const mediaType = (headers: IncomingHttpHeaders) =>
  (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

export const post = (url: URL, headers: Record<string, string>, body: string, signal: AbortSignal) =>
  exchange('POST', url, { ...headers, 'content-length': String(Buffer.byteLength(body)) }, body, signal);

/** A GET without a body (the resumption of an SSE stream). */
export const get = (url: URL, headers: Record<string, string>, signal: AbortSignal) =>
  exchange('GET', url, headers, undefined, signal);

function exchange(
  method: 'GET' | 'POST',
  url: URL,
  headers: Record<string, string>,
  body: string | undefined,
  signal: AbortSignal,
): Promise<PostAnswer> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return Promise.reject(new Error(`Unsupported URL scheme: ${url.protocol}`));
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<PostAnswer>((resolve, reject) => {
    const onAbort = () => call.abort(signal.reason instanceof Error ? signal.reason : new Error('Aborted'));
    const release = () => signal.removeEventListener('abort', onAbort);
    // The answer's body: collected as text (JSON, an error status) or pushed into a stream.
    let status = 0;
    let answerHeaders: IncomingHttpHeaders = {};
    let stream: Readable | undefined;
    // A small answer is one chunk, decoded once at the end; a decoder (which keeps a character
    // split between chunks whole) only once a second chunk comes.
    let first: Buffer | undefined;
    let decoder: StringDecoder | undefined;
    let text = '';
    let call: WireCall;
    try {
      call = wireRequest(
        { method, url, headers, body },
        {
          head(code, received) {
            status = code;
            answerHeaders = received;
            if (status < 200 || status >= 300 || mediaType(received) === 'application/json') return;
            stream = new Readable({
              read: () => call.resume(),
              // The reader let go before the end: the request ends with it (its connection closed).
              destroy: (error, done) => {
                release();
                call.abort(error ?? cutOff());
                done(error);
              },
            });
            // The stream may end in a fault before its reader is there (the fault came with the
            // head): the reader finds it (`errored`, thrown by its iteration), and the process is
            // not brought down by an 'error' nobody listened to (node's IncomingMessage, too,
            // emits one only to a listener).
            stream.on('error', () => {});
            resolve({ status, headers: received, stream });
          },
          data(chunk) {
            if (stream) return void (stream.push(chunk) || call.pause());
            if (!first && !decoder) return void (first = chunk);
            if (!decoder) {
              decoder = new StringDecoder('utf8');
              text = decoder.write(first!);
              first = undefined;
            }
            text += decoder.write(chunk);
            if (text.length <= MAX_ANSWER_CHARS) return;
            release();
            reject(answerTooLarge());
            call.abort(answerTooLarge());
          },
          end() {
            release();
            if (stream) return void stream.push(null);
            text = decoder ? text + decoder.end() : (first?.toString('utf8') ?? '');
            // One chunk over the cap (a server's single large write) is refused as the others are.
            if (text.length > MAX_ANSWER_CHARS) return reject(answerTooLarge());
            resolve({ status, headers: answerHeaders, text });
          },
          fail(error) {
            release();
            // An abort or a cut connection while the stream is read: it ends, as node's does; an
            // answer that stops being well-formed HTTP ends it with that fault.
            if (stream)
              return void stream.destroy(
                (error as { code?: string }).code === 'HPE_INVALID' ? connectionFailed(error) : cutOff(),
              );
            // node's own words ("socket hang up", "aborted") read as if the caller gave up: say whose fault.
            reject(signal.aborted ? error : connectionFailed(error));
          },
        },
      );
    } catch (error) {
      return reject(error);
    }
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A body broken off (an abort, a cut connection), in node's words. */
const cutOff = () => Object.assign(new Error('aborted'), { code: 'ECONNRESET' });

/** A connection's failure, as the caller reports it (the server is gone or broke off). */
export const connectionFailed = (error: Error) =>
  new Error(`The connection to the server failed: ${error.message}`, { cause: error });
