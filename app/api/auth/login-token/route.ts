// POST /api/auth/login-token: consumes a one-time sign-in link and starts a session. The /login
// page posts the token on a button press; a GET never consumes it (link previewers would). Failed
// exchanges count against the client address in the login throttle (429 with Retry-After).
import { clientIp, exchangeLoginToken } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { sessionResponse } from '../session';
import { LoginTokenSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('public', async (request, _params, rt) => {
  const { token } = await readJson(request, LoginTokenSchema, rt.config.maxBodyBytes);
  const user = await exchangeLoginToken({
    q: rt.q,
    token,
    throttle: rt.loginThrottle,
    ip: clientIp(request.headers, { trustedProxies: rt.config.trustedProxies }),
  });
  return await sessionResponse(request, rt, user);
});
