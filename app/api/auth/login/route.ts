// POST /api/auth/login: username and password → the session cookie and `{ user }`. Throttled per
// client address and per username (429 with Retry-After); the origin check keeps login CSRF out.
import { clientIp, loginWithPassword } from '@/lib/auth';
import { readJson } from '@/lib/server/http/body';
import { handle } from '@/lib/server/http/handler';
import { sessionResponse } from '../session';
import { LoginSchema } from './schema';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('public', async (request, _params, rt) => {
  const { username, password } = await readJson(request, LoginSchema, rt.config.maxBodyBytes);
  const user = await loginWithPassword({
    q: rt.q,
    username,
    password,
    throttle: rt.loginThrottle,
    ip: clientIp(request.headers, { trustedProxies: rt.config.trustedProxies }),
  });
  return await sessionResponse(request, rt, user);
});
