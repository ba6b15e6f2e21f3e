// What the auth routes share: the signed-in user as the browser sees it, and the response that
// starts a session (a stored session named by the signed, httpOnly cookie of lib/auth).
import type { Me } from '@/lib/contract';
import { PERMISSIONS, isSecureRequest, startSession, type Role } from '@/lib/auth';
import type { Runtime } from '@/lib/server/runtime';

export function toMe(user: { id: string; username: string; displayName: string; role: Role }): Me {
  return {
    id: user.id,
    username: user.username,
    displayName: user.displayName,
    role: user.role,
    permissions: [...PERMISSIONS[user.role]],
  };
}

/** Starts a session for `user`: `{ user }` with the session cookie; never cached. */
export async function sessionResponse(
  request: Request,
  rt: Runtime,
  user: Parameters<typeof toMe>[0],
): Promise<Response> {
  const { cookie } = await startSession({
    q: rt.q,
    userId: user.id,
    secret: rt.sessionSecret,
    secure: isSecureRequest(request),
  });
  return Response.json({ user: toMe(user) }, { headers: { 'Set-Cookie': cookie, 'Cache-Control': 'no-store' } });
}
