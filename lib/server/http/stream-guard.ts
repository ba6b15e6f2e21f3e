// The guard of a run's event stream (lib/server/http/sse.ts): the stream may go on only while the
// credential it was opened with still authenticates the same user and that user may still see the
// run. A user disabled, a session ended (sign-out, sign out everywhere, password reset) or a token
// revoked ends their open streams: at once when the change is announced (this instance's queries,
// or another instance's NOTIFY), else at the next heartbeat. A check is one `authenticate`: a
// session's row (one statement), or a token's rows from its cache.
import { authenticate, canSeeRun, type AuthUser, type OwnedRun } from '../../auth';
import type { Runtime } from '../runtime';
import type { StreamGuard } from './sse';

// What authenticate reads. Copied, so a long stream keeps two strings rather than the request.
const CREDENTIAL_HEADERS = ['authorization', 'cookie'] as const;

export interface StreamGuardInput {
  rt: Pick<Runtime, 'q' | 'sessionSecret'>;
  /** The headers the stream was requested with. */
  headers: Pick<Headers, 'get'>;
  /** Who opened the stream. */
  user: AuthUser;
  /** The run the stream follows. */
  run: OwnedRun;
}

/**
 * A stream that lives as long as its caller's credential (the token or cookie it was opened with,
 * re-checked on every heartbeat and on any credential change of that user), and while `allowed`
 * still holds for the user it names now.
 */
function credentialGuard(
  { rt, headers, user }: Omit<StreamGuardInput, 'run'>,
  allowed: (now: AuthUser) => boolean,
): StreamGuard {
  const kept = new Headers();
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value !== null) kept.set(name, value);
  }
  return {
    async check() {
      const now = await authenticate({ q: rt.q, headers: kept, secret: rt.sessionSecret });
      return now !== undefined && now.id === user.id && allowed(now);
    },
    watch(listener) {
      // A change that names nobody (notices lost after a reconnect) may concern anyone.
      return rt.q.credentials.watch((userId) => {
        if (userId === undefined || userId === user.id) listener();
      });
    },
  };
}

export function runStreamGuard({ run, ...input }: StreamGuardInput): StreamGuard {
  return credentialGuard(input, (now) => canSeeRun(now, run));
}

/** A stream that follows no run (the approvals inbox): it lives as long as its caller's credential. */
export function userStreamGuard(input: Omit<StreamGuardInput, 'run'>): StreamGuard {
  return credentialGuard(input, () => true);
}
