// The fetch of the SDK's Streamable HTTP client transport (initialize, tools/list, notifications,
// the standalone SSE stream): an answer's body is read only up to the cap a tool call's answer has
// (http-post.ts), so an upstream cannot make Gatehouse buffer an endless listing; and each request
// gets its own abort signal, so the transport's one long-lived signal does not collect a listener
// per request (undici adds one to the signal it is given and drops it only when the Request is
// garbage-collected).
import { mediaTypeEssence } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MAX_ANSWER_CHARS } from './http-post';

/**
 * The cap, in bytes: a body arrives as bytes, and a UTF-8 character is at least one byte, so this
 * never reads more than a tool call's answer may hold. A JSON answer counts as a whole; an SSE
 * stream counts per event (reset at each blank line), since the standalone GET stream stays open
 * for the whole session and the SDK's parser holds one event at a time: a per-stream cap would cut
 * a healthy session off after enough notifications, while a per-event one bounds what is in memory.
 */
export const MAX_ANSWER_BYTES = MAX_ANSWER_CHARS;

export const answerTooLargeFor = (limit: number) =>
  new Error(`its answer (or one event of its SSE stream) is larger than ${limit} bytes: not read`);

export interface BoundedFetchOptions {
  /** Told when an answer went past the cap (the upstream then closes its client: unavailable). */
  onTooLarge?: (error: Error) => void;
  limit?: number;
  /** The fetch underneath (the tests'); the global one by default. */
  fetch?: FetchLike;
}

export function boundedFetch(options: BoundedFetchOptions = {}): FetchLike {
  const limit = options.limit ?? MAX_ANSWER_BYTES;
  return async (url, init = {}) => {
    const own = new AbortController();
    const outer = init.signal ?? undefined;
    const forward = () => own.abort(outer?.reason);
    // Once the body is read to its end (or given up), nothing is left to abort on this request.
    const release = () => outer?.removeEventListener('abort', forward);
    if (outer?.aborted) own.abort(outer.reason);
    else outer?.addEventListener('abort', forward, { once: true });
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { ...init, signal: own.signal });
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body) {
      release();
      return response;
    }
    const sse = mediaTypeEssence(response.headers.get('content-type')) === 'text/event-stream';
    const fits = sse ? sseEventCounter(limit) : totalCounter(limit);
    const body = boundedBody(response.body, fits, release, () => {
      const error = answerTooLargeFor(limit);
      own.abort(error);
      options.onTooLarge?.(error);
      return error;
    });
    const bounded = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    // The SDK names the URL of a redirect it did not follow (shared/transport.js unfollowedRedirect).
    Object.defineProperty(bounded, 'url', { value: response.url });
    return bounded;
  };
}

type Fits = (chunk: Uint8Array) => boolean;

function totalCounter(limit: number): Fits {
  let size = 0;
  return (chunk) => (size += chunk.byteLength) <= limit;
}

const LF = 0x0a;
const CR = 0x0d;

/** Counts the bytes of the SSE event being read; a blank line (LF, CR or CRLF line ends) ends it. */
function sseEventCounter(limit: number): Fits {
  let size = 0;
  let lineLength = 0;
  let afterCR = false;
  return (chunk) => {
    for (const byte of chunk) {
      if (byte === LF && afterCR) {
        afterCR = false;
        continue;
      }
      afterCR = byte === CR;
      if (byte === LF || byte === CR) {
        if (lineLength === 0) size = 0;
        lineLength = 0;
        continue;
      }
      lineLength++;
      if (++size > limit) return false;
    }
    return true;
  };
}

/** `body`, passed on as read (pulled, so nothing is read ahead of its reader), failing past the cap. */
function boundedBody(
  body: ReadableStream<Uint8Array>,
  fits: Fits,
  release: () => void,
  tooLarge: () => Error,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const { value, done } = await reader.read();
          if (done) {
            release();
            return controller.close();
          }
          if (fits(value)) return controller.enqueue(value);
          release();
          const error = tooLarge();
          controller.error(error);
          void reader.cancel(error).catch(() => undefined);
        } catch (error) {
          release();
          controller.error(error);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
