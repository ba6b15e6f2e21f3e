// A JSON Response whose body text is kept where it was made, so the custom server's fast path
// (routes/fast-routes.ts) writes that text straight to the socket instead of reading the Response's
// stream back (a Web stream read costs several promise turns, each dearer in a process that tracks
// async context). Next serves the same Response as any other. For a request the fast path serves
// (one with a direct body, node-request.ts) the Response is made without a body at all: in Next's
// server process making one took about 0.1 ms, as much as the rest of the answer, and nothing but
// the fast path, which writes the kept text, ever reads it.
import { hasDirectBody, type RouteRequest } from './route-request';

const bodies = new WeakMap<Response, string>();

export function jsonResponse(value: unknown, init: ResponseInit = {}, request?: RouteRequest): Response {
  const text = JSON.stringify(value);
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  const fastPath = request !== undefined && hasDirectBody(request);
  const response = new Response(fastPath ? null : text, { ...init, headers });
  bodies.set(response, text);
  return response;
}

/** The body `jsonResponse` made this Response with, or undefined (read it as a stream). */
export const knownBody = (response: Response): string | undefined => bodies.get(response);
