import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, toResponse } from './errors';
import { RelayAlreadyResolvedError, RelayNotFoundError } from '../../relay';
import { importPolicy } from '../../policy';
import {
  ForbiddenError,
  LastAdminError,
  PasswordPolicyError,
  RateLimitedError,
  UnauthorizedError,
  UserNotFoundError,
  UsernameTakenError,
} from '../../auth';

async function body(response: Response) {
  return { status: response.status, json: await response.json() };
}

describe('toResponse', () => {
  it('zod errors are 400 with field-level messages', async () => {
    const parsed = z.object({ sessionId: z.string() }).safeParse({ sessionId: 5 });
    const { status, json } = await body(toResponse(parsed.error));
    expect(status).toBe(400);
    expect(json.error.fields).toEqual([{ path: 'sessionId', message: expect.any(String) }]);
  });

  it('policy validation errors are 400 naming the field', async () => {
    let error: unknown;
    try {
      importPolicy({ rules: [{ action: 'maybe', tool: 'x' }] });
    } catch (caught) {
      error = caught;
    }
    const { status, json } = await body(toResponse(error));
    expect(status).toBe(400);
    expect(json.error.fields[0].path).toBe('rules.0.action');
  });

  it('relay errors are 404 and 409 with the recorded decision', async () => {
    expect((await body(toResponse(new RelayNotFoundError('r')))).status).toBe(404);
    const outcome = { status: 'approved' as const, decidedBy: 'alice', decidedAt: 1 };
    const conflict = await body(toResponse(new RelayAlreadyResolvedError('r', outcome)));
    expect(conflict).toEqual({
      status: 409,
      json: { error: { code: 'conflict:relay_resolved', message: 'The relay is already approved', outcome } },
    });
  });

  it('unknown errors are a 500 that leaks nothing', async () => {
    const { status, json } = await body(
      toResponse(new Error('duplicate key value violates unique constraint "relays_pkey"')),
    );
    expect(status).toBe(500);
    expect(JSON.stringify(json)).not.toContain('relays_pkey');
  });

  it('errors from another copy of a module (Next bundles) are recognized by their code', async () => {
    const foreign = Object.assign(new Error('No such run'), { name: 'AppError', code: 'not_found:run', status: 404 });
    expect((await body(toResponse(foreign))).status).toBe(404);
    const conflict = Object.assign(new Error('x'), { code: 'conflict:relay_resolved', outcome: { status: 'denied' } });
    expect(await body(toResponse(conflict))).toMatchObject({
      status: 409,
      json: { error: { outcome: { status: 'denied' } } },
    });
  });

  it('access-control errors map by code: 401, 403, 409, 404, 400 with the field, 429 with Retry-After', async () => {
    expect(await body(toResponse(new UnauthorizedError()))).toEqual({
      status: 401,
      json: { error: { code: 'unauthorized', message: 'Sign in first' } },
    });
    expect(
      (await body(toResponse(new UnauthorizedError('unauthorized:credentials', 'Wrong username or password')))).json
        .error.code,
    ).toBe('unauthorized:credentials');
    expect(await body(toResponse(new ForbiddenError('policy:edit')))).toMatchObject({
      status: 403,
      json: { error: { code: 'forbidden:policy:edit' } },
    });
    expect((await body(toResponse(new UsernameTakenError('bob')))).status).toBe(409);
    expect((await body(toResponse(new LastAdminError()))).status).toBe(409);
    expect((await body(toResponse(new UserNotFoundError('u1')))).status).toBe(404);
    expect(await body(toResponse(new PasswordPolicyError('must be at least 10 characters')))).toMatchObject({
      status: 400,
      json: {
        error: {
          code: 'bad_request:password',
          fields: [{ path: 'password', message: 'must be at least 10 characters' }],
        },
      },
    });
    const limited = toResponse(new RateLimitedError(42));
    expect(limited.headers.get('retry-after')).toBe('42');
    expect(await body(limited)).toMatchObject({
      status: 429,
      json: { error: { code: 'rate_limited:login', retryAfterS: 42 } },
    });
    // From another copy of lib/auth (Next bundles): recognized by the code alone.
    const foreign = Object.assign(new Error('You are not allowed to do this (users:manage)'), {
      code: 'forbidden:users:manage',
    });
    expect((await body(toResponse(foreign))).status).toBe(403);
  });

  // Shapes seen from node-postgres through Drizzle (e2e/postgres-restart.spec.ts stops a real server
  // under load): Drizzle wraps the driver's error as `cause` of a "Failed query" error.
  const failedQuery = (cause: unknown) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });
  const pgError = (code: string, message: string) => Object.assign(new Error(message), { name: 'error', code });
  it.each([
    [
      'a query in flight when the server crashes (no code)',
      failedQuery(new Error('Connection terminated unexpectedly')),
    ],
    [
      'a pooled client whose connection died',
      failedQuery(new Error('Client has encountered a connection error and is not queryable')),
    ],
    ['a pool that could not connect in time', new Error('timeout exceeded when trying to connect')],
    [
      'a refused connection (server down)',
      failedQuery(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
    ],
    ['a reset connection', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    [
      'a fast shutdown ending the session (57P01)',
      failedQuery(pgError('57P01', 'terminating connection due to administrator command')),
    ],
    [
      'a crash of another backend (57P02)',
      pgError('57P02', 'terminating connection because of crash of another server process'),
    ],
    ['a server still starting up (57P03)', pgError('57P03', 'the database system is starting up')],
    ['a connection exception (class 08)', pgError('08006', 'connection failure')],
  ])('an unreachable database is a 503 that says so: %s', async (_name, error) => {
    expect(await body(toResponse(error))).toEqual({
      status: 503,
      json: { error: { code: 'unavailable:database', message: 'The database is not reachable; try again shortly' } },
    });
  });

  it.each([
    [
      'a constraint violation',
      failedQuery(pgError('23505', 'duplicate key value violates unique constraint "relays_pkey"')),
    ],
    ['a message that only mentions a lost connection', new Error('Tool output: Connection terminated unexpectedly')],
    ['a code that only starts like a connection exception', pgError('0800', 'x')],
  ])('other database errors stay a 500: %s', async (_name, error) => {
    expect((await body(toResponse(error))).status).toBe(500);
  });

  it('AppErrors keep their code and status', async () => {
    expect(await body(toResponse(new AppError('not_found:run', 404, 'No such run')))).toEqual({
      status: 404,
      json: { error: { code: 'not_found:run', message: 'No such run' } },
    });
  });
});
