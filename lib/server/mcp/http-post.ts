// One POST (or the GET that resumes a stream) with node's http(s) over kept-alive connections, for
// http-call.ts: no fetch, no Response,
// no Web streams. The global fetch (which Next patches for its data cache and tracing) and the
// Response and stream objects around it cost several times the round trip to a local server, in a
// process where every promise pays for async context tracking. A JSON answer (or an error status)
// is read whole as text; any other answer (an SSE stream) is handed over as node's stream.
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * The most of an answer read into memory (characters of a JSON answer, of an SSE event): a server
 * that sends more fails the call rather than the process. An McpError, as a refused answer is, not
 * a broken connection: the server stays in use.
 */
export const MAX_ANSWER_CHARS = 16 * 1024 * 1024;
export const answerTooLarge = () =>
  new McpError(ErrorCode.InternalError, `The server's answer is larger than ${MAX_ANSWER_CHARS} characters: not read`);

// An idle connection is let go after 4 s (as undici's fetch does), or 1 s before the end of the
// keep-alive its server announces: node honours that announcement only with a timeout set, and a
// call written on a connection its server is closing fails as if the server were gone. (The
// timeout closes idle connections only: a slow answer is not cut.)
const options = { keepAlive: true, timeout: 4_000 };
const agents = { 'http:': new http.Agent(options), 'https:': new https.Agent(options) };

export interface PostAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body, for a JSON answer or an error status. */
  text?: string;
  /** The body as it arrives, otherwise (the caller reads or destroys it). */
  stream?: IncomingMessage;
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
    const onAbort = () => request.destroy(signal.reason instanceof Error ? signal.reason : new Error('Aborted'));
    const release = () => signal.removeEventListener('abort', onAbort);
    // node's own words ("socket hang up", "aborted") read as if the caller gave up: say whose fault.
    const fail = (error: Error) => {
      release();
      reject(signal.aborted ? error : connectionFailed(error));
    };
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      { method, headers, agent: agents[url.protocol as 'http:' | 'https:'] },
      (answer) => {
        // Until the answer has been read whole (a stream: by the caller) an abort ends it.
        answer.once('close', release);
        const status = answer.statusCode ?? 502;
        if (status >= 200 && status < 300 && mediaType(answer.headers) !== 'application/json')
          return resolve({ status, headers: answer.headers, stream: answer });
        // A small answer is one chunk, decoded once at the end; a decoder (which keeps a character
        // split between chunks whole) only once a second chunk comes.
        let first: Buffer | undefined;
        let decoder: StringDecoder | undefined;
        let text = '';
        answer.on('data', (chunk: Buffer) => {
          if (!first && !decoder) return void (first = chunk);
          if (!decoder) {
            decoder = new StringDecoder('utf8');
            text = decoder.write(first!);
            first = undefined;
          }
          text += decoder.write(chunk);
          if (text.length <= MAX_ANSWER_CHARS) return;
          release();
          answer.destroy();
          reject(answerTooLarge());
        });
        answer.on('end', () => {
          text = decoder ? text + decoder.end() : (first?.toString('utf8') ?? '');
          // One chunk over the cap (a server's single large write) is refused as the others are.
          if (text.length > MAX_ANSWER_CHARS) return reject(answerTooLarge());
          resolve({ status, headers: answer.headers, text });
        });
        answer.on('error', fail);
      },
    );
    signal.addEventListener('abort', onAbort, { once: true });
    request.on('error', fail);
    request.end(body);
  });
}

/** A connection's failure, as the caller reports it (the server is gone or broke off). */
export const connectionFailed = (error: Error) =>
  new Error(`The connection to the server failed: ${error.message}`, { cause: error });
