// Who is looking at a server-rendered page: the same `authenticate` as the API (session cookie or
// Bearer token), from the page request's headers. Next-free on purpose (lib/ must not import next):
// app/_auth/page-auth.ts adds `headers()` and the redirect to /login. An agent token is nobody
// here: it only asks the gate (handler.ts's agentRoute), it never shows a page.
import { authenticate, isAgentToken, type AuthUser } from '../../auth';
import { getRuntime } from '../runtime';

export async function pageUser(headers: Pick<Headers, 'get'>): Promise<AuthUser | undefined> {
  const rt = await getRuntime();
  const user = await authenticate({ q: rt.q, headers, secret: rt.sessionSecret });
  return isAgentToken(user) ? undefined : user;
}

/** `/login?next=<path>` for a page that needs a signed-in user; only same-site relative paths are kept. */
export function loginPathFor(pathname: string): string {
  return pathname.startsWith('/') && !pathname.startsWith('//') && !pathname.startsWith('/\\') && pathname !== '/'
    ? `/login?next=${encodeURIComponent(pathname)}`
    : '/login';
}
