// POST /api/auth/logout: clears the session cookie. Public, so a stale cookie can always be
// dropped; the origin check still applies (no cross-site sign-out).
import { clearSessionCookieHeader, isSecureRequest } from '@/lib/auth';
import { handle } from '@/lib/server/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const POST = handle('public', async (request) =>
  Response.json({ success: true }, { headers: { 'Set-Cookie': clearSessionCookieHeader({ secure: isSecureRequest(request) }), 'Cache-Control': 'no-store' } }),
);
