// One wrapper for every route handler: get the runtime, run the handler, and turn any error into
// the app's error response. Route files stay "parse -> call lib -> shape the response".
import { assertCan, assertSameOrigin, authenticate, requireUser, type Action, type AuthUser } from '../../auth';
import { toResponse } from './errors';
import { assertNoNul } from './input';
import type { RouteRequest } from './route-request';
import { getRuntime, type Runtime } from '../runtime';

type Context<P> = { params: Promise<P> };

/** Who may call a route: anyone, anyone signed in, or whoever's role has the action. */
export type Access = 'public' | 'signed-in' | Action;

type RouteFn<P, R extends RouteRequest> = (request: R, params: P, rt: Runtime, user: AuthUser | undefined) => Promise<Response>;

/**
 * Every route names its access. Checks run in this order: same-origin for unsafe methods (403),
 * then who is calling (401), then the role (403), then the route parses its input. `user` is
 * undefined only for public routes. A route that also runs on the fast path (routes/) declares
 * `R` as RouteRequest and reads only that much of its request.
 */
export function handle<P extends Record<string, string> = Record<string, never>, R extends RouteRequest = Request>(access: Access, fn: RouteFn<P, R>) {
  return async (request: R, context: Context<P>): Promise<Response> => {
    try {
      assertSameOrigin(request);
      const params = await context.params;
      // No stored id holds a NUL character, and PostgreSQL refuses to compare one.
      assertNoNul(params ?? {}, 'path');
      const rt = await getRuntime();
      const user = await authenticate({ q: rt.q, headers: request.headers, secret: rt.sessionSecret });
      if (access === 'signed-in') requireUser(user);
      else if (access !== 'public') assertCan(user, access);
      return await fn(request, params, rt, user);
    } catch (error) {
      return toResponse(error);
    }
  };
}

/** The signed-in user of a route whose access is not `public` (the wrapper has checked). */
export function signedIn(user: AuthUser | undefined): AuthUser {
  return requireUser(user);
}

/** Query-string parameters, for a zod schema; a NUL character anywhere is a 400 naming the parameter. */
export function searchParams(request: Request): Record<string, string> {
  const values = Object.fromEntries(new URL(request.url).searchParams);
  assertNoNul(values, 'query');
  return values;
}
