// What a route handler reads of its request. Next hands routes a Web `Request`, which satisfies
// it; the custom server's fast path (fast-routes.ts) hands a NodeRouteRequest (node-request.ts),
// a thin view of node's request that builds no Headers, URL, stream or Request unless asked: on
// a path that runs a few times a minute, V8 runs that code cold, and undici's Request alone took
// about a quarter of a millisecond of a human's decision before the tool started.

export interface RouteRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Pick<Headers, 'get'>;
  /** Aborts when the client goes away before the response is finished. */
  readonly signal: AbortSignal;
  readonly body: ReadableStream<Uint8Array> | null;
}

/** A body that can be read whole without a Web stream (node-request.ts). */
export interface DirectBody {
  /** The whole body, or `too_large` as soon as more than `maxBytes` arrived (the rest is discarded). Once only. */
  readBody(maxBytes: number): Promise<Buffer | 'too_large'>;
}

export function hasDirectBody(request: RouteRequest): request is RouteRequest & DirectBody {
  return typeof (request as Partial<DirectBody>).readBody === 'function';
}
