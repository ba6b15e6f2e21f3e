// The app's one error type: a code like "not_found:relay", an HTTP status and a safe message
// (with field-level details for validation errors). `toResponse` is the only place an error
// becomes a response, so no route handler leaks a stack trace or SQL.
import { z } from 'zod';

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: { fields?: FieldError[]; [key: string]: unknown },
  ) {
    super(message);
    this.name = 'AppError';
  }

  static badRequest(message: string, fields?: FieldError[]): AppError {
    return new AppError('bad_request', 400, message, fields ? { fields } : undefined);
  }

  static fromZod(error: z.ZodError, what = 'request'): AppError {
    const fields = error.issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));
    const first = fields[0];
    return new AppError(
      'bad_request',
      400,
      `Invalid ${what}${first ? `: ${first.path || '(body)'} ${first.message}` : ''}`,
      { fields },
    );
  }
}

/**
 * Maps any thrown value to an AppError; unknown errors become a generic 500 without internals.
 * Errors are recognized by their `code`, not `instanceof`: Next bundles instrumentation and route
 * handlers separately, so one error class can exist twice in one process.
 */
export function toAppError(error: unknown): AppError {
  const e = error as {
    code?: unknown;
    name?: unknown;
    status?: unknown;
    message?: unknown;
    details?: unknown;
    issues?: unknown;
    outcome?: unknown;
  } | null;
  if (error instanceof AppError) return error;
  if (e && e.name === 'AppError' && typeof e.code === 'string' && typeof e.status === 'number') {
    return new AppError(e.code, e.status, String(e.message), e.details as AppError['details']);
  }
  if (error instanceof z.ZodError) return AppError.fromZod(error);
  switch (e?.code) {
    case 'invalid_policy':
      return new AppError('bad_request:policy', 400, String(e.message), { fields: e.issues as FieldError[] });
    case 'not_found:relay':
      return new AppError('not_found:relay', 404, 'No such relay');
    case 'conflict:relay_resolved': {
      const outcome = e.outcome as { status: string };
      return new AppError('conflict:relay_resolved', 409, `The relay is already ${outcome.status}`, { outcome });
    }
    case 'conflict:relay_quorum':
    case 'conflict:relay_same_approver':
      // The relay stays pending: a person who has not approved yet may still.
      return new AppError(e.code, 409, String(e.message));
    case 'conflict:lease_lost':
      return new AppError('conflict:lease_lost', 409, 'The run is executed by another instance now; try again');
    case 'invalid_cursor':
      return AppError.badRequest('The cursor is not valid', [
        { path: 'cursor', message: 'not a cursor this API handed out' },
      ]);
  }
  const auth = fromAuthError(e);
  if (auth) return auth;
  if (isDatabaseUnreachable(error))
    return new AppError('unavailable:database', 503, 'The database is not reachable; try again shortly');
  return new AppError('internal', 500, 'Something went wrong on the server');
}

export function toResponse(error: unknown): Response {
  const appError = toAppError(error);
  const retryAfterS = appError.details?.retryAfterS;
  const headers = typeof retryAfterS === 'number' ? { 'Retry-After': String(retryAfterS) } : undefined;
  return Response.json(
    { error: { code: appError.code, message: appError.message, ...appError.details } },
    { status: appError.status, headers },
  );
}

/** The errors of lib/auth (their messages are written to be shown). */
function fromAuthError(
  e: { code?: unknown; message?: unknown; issues?: unknown; retryAfterS?: unknown } | null,
): AppError | undefined {
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = String(e?.message ?? '');
  if (code === 'unauthorized' || code.startsWith('unauthorized:')) return new AppError(code, 401, message);
  if (code.startsWith('forbidden:')) return new AppError(code, 403, message);
  switch (code) {
    case 'rate_limited:login':
      return new AppError(code, 429, message, { retryAfterS: Number(e?.retryAfterS) });
    case 'bad_request:password':
      return new AppError(code, 400, message, { fields: e?.issues as FieldError[] });
    case 'conflict:username':
    case 'conflict:last_admin':
    case 'conflict:user_disabled':
      return new AppError(code, 409, message);
    case 'not_found:user':
      return new AppError(code, 404, 'No such user');
  }
  return undefined;
}

// Lost or refused connections: Node's socket errors, and PostgreSQL's SQLSTATEs for a server that is
// shutting down, crashed, starting up or refusing connections (class 08 is "connection exception").
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
]);
// node-postgres reports a connection cut under a query (a crash of the server, `pg_ctl stop -m
// immediate`, a dropped network) without any code, only with these messages.
const UNREACHABLE_MESSAGES = [
  /^Connection terminated\b/,
  /^Client has encountered a connection error and is not queryable$/,
  /^timeout exceeded when trying to connect$/,
];

/** True when the error, or one it wraps (Drizzle's "Failed query" keeps the driver's as `cause`), says the database cannot be reached. */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && (UNREACHABLE_CODES.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true;
    if (typeof e.message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(e.message as string)))
      return true;
  }
  return false;
}
