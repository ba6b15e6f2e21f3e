// POST /api/auth/logout: ends the session the cookie names (its stored row is deleted, so a copy
// of the cookie stops working too) and clears the cookie. Public, so a stale cookie can always be
// dropped; the origin check still applies (no cross-site sign-out). An API token is not a session:
// a Bearer caller's token stays valid.
import { clearSessionCookieHeader, endSession, isSecureRequest } from '@/lib/auth';
import { handle } from '@/lib/server/http/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('public', async (request, _params, rt) => {
  await endSession({ q: rt.q, cookieHeader: request.headers.get('cookie'), secret: rt.sessionSecret });
  return Response.json(
    { success: true },
    {
      headers: {
        'Set-Cookie': clearSessionCookieHeader({ secure: isSecureRequest(request) }),
        'Cache-Control': 'no-store',
      },
    },
  );
});
