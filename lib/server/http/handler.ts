// One wrapper for every route handler: get the runtime, run the handler, and turn any error into
// the app's error response. Route files stay "parse -> call lib -> shape the response".
import type { z } from 'zod';
import {
  assertCan,
  assertNotAgentToken,
  assertSameOrigin,
  authenticate,
  requireUser,
  UnauthorizedError,
  type Action,
  type AuthUser,
} from '../../auth';
import { AppError, toResponse } from './errors';
import { assertNoNul } from './input';
import type { RouteRequest } from './route-request';
import { getRuntime, type Runtime } from '../runtime';

type Context<P> = { params: Promise<P> };

/** Who may call a route: anyone, anyone signed in, or whoever's role has the action. */
export type Access = 'public' | 'signed-in' | Action;

/**
 * A route for scripts and agents only (hooks, MCP): the credential is an API token
 * (`Authorization: Bearer`), a request without one is a 401 before anything else. A browser cannot
 * send that header cross-site without a CORS preflight, which Gatehouse never grants, so no page
 * can ride on a session cookie to reach it.
 */
function tokenOnly<P extends Record<string, string>, R extends RouteRequest>(handler: Handler<P, R>): Handler<P, R> {
  return async (request, context) => {
    if (!/^Bearer\s+\S/i.test(request.headers.get('authorization') ?? ''))
      return toResponse(new UnauthorizedError('unauthorized', 'Send an API token: Authorization: Bearer <token>'));
    return handler(request, context);
  };
}

/**
 * A route an agent calls to ask the gate (the hook endpoints, /api/mcp): token-only, and the one
 * kind of route that accepts an agent token (`purpose: 'agent'`). Every other route refuses agent
 * tokens (403 `forbidden:agent_token`), so the token an agent's shell can read cannot decide its
 * relays, read runs or change the policy (docs/decisions/0027-agent-tokens.md).
 */
export function agentRoute<P extends Record<string, string> = Record<string, never>, R extends RouteRequest = Request>(
  access: Exclude<Access, 'public'>,
  fn: RouteFn<P, R, AuthUser>,
): Handler<P, R> {
  return tokenOnly(guarded<P, R>(access, fn, true));
}

/** The caller as a route sees it: anyone (maybe signed in) for a public route, else the signed-in user. */
type RouteFn<P, R extends RouteRequest, U> = (request: R, params: P, rt: Runtime, user: U) => Promise<Response>;
type Handler<P, R> = (request: R, context: Context<P>) => Promise<Response>;

/**
 * Every route names its access. Checks run in this order: same-origin for unsafe methods (403),
 * then who is calling (401), then an agent token on a route that does not accept one (403), then
 * the role (403), then the route parses its input. A public
 * route gets the user if there is one; every other route gets the signed-in user (typed so).
 * A route that also runs on the fast path (routes/) declares `R` as RouteRequest and reads only
 * that much of its request.
 */
export function handle<P extends Record<string, string> = Record<string, never>, R extends RouteRequest = Request>(
  access: 'public',
  fn: RouteFn<P, R, AuthUser | undefined>,
): Handler<P, R>;
export function handle<P extends Record<string, string> = Record<string, never>, R extends RouteRequest = Request>(
  access: Exclude<Access, 'public'>,
  fn: RouteFn<P, R, AuthUser>,
): Handler<P, R>;
export function handle<P extends Record<string, string>, R extends RouteRequest>(
  access: Access,
  fn: RouteFn<P, R, AuthUser> | RouteFn<P, R, AuthUser | undefined>,
): Handler<P, R> {
  return guarded(access, fn, false);
}

/** handle's checks; `agentTokens` is true for agentRoute only, so no other route can opt in. */
function guarded<P extends Record<string, string>, R extends RouteRequest>(
  access: Access,
  fn: RouteFn<P, R, AuthUser> | RouteFn<P, R, AuthUser | undefined>,
  agentTokens: boolean,
): Handler<P, R> {
  return async (request, context) => {
    try {
      assertSameOrigin(request);
      const params = await context.params;
      // No stored id holds a NUL character, and PostgreSQL refuses to compare one.
      assertNoNul(params ?? {}, 'path');
      const rt = await getRuntime();
      const user = await authenticate({ q: rt.q, headers: request.headers, secret: rt.sessionSecret });
      // Default deny: an agent token is refused here, before the role, unless the route opted in.
      if (!agentTokens) assertNotAgentToken(user);
      if (access === 'public') return await (fn as RouteFn<P, R, AuthUser | undefined>)(request, params, rt, user);
      return await fn(request, params, rt, access === 'signed-in' ? requireUser(user) : assertCan(user, access));
    } catch (error) {
      return toResponse(error);
    }
  };
}

/**
 * The query string, checked by `schema` (the only way a route reads it): a NUL character anywhere,
 * or a value the schema refuses, is a 400 naming the parameter.
 */
export function searchParams<S extends z.ZodType>(request: Pick<Request, 'url'>, schema: S): z.infer<S> {
  const values = Object.fromEntries(new URL(request.url).searchParams);
  assertNoNul(values, 'query');
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw AppError.fromZod(parsed.error, 'query');
  return parsed.data;
}
