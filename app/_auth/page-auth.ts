// Server-side page guards (server components, layouts): who is signed in, and "sign in first"
// as a redirect to /login?next=<this page>. The Next-free part lives in lib/server/http/page-auth.ts.
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { AuthUser } from '@/lib/auth';
import { loginPathFor, pageUser } from '@/lib/server/http/page-auth';

/** The signed-in user of this page request, or undefined. Makes the page dynamic (it reads headers). */
export async function currentPageUser(): Promise<AuthUser | undefined> {
  return pageUser(await headers());
}

/** The signed-in user; nobody signed in: redirect to the login page, which comes back to `pathname`. */
export async function requirePageUser(pathname: string): Promise<AuthUser> {
  const user = await currentPageUser();
  if (!user) redirect(loginPathFor(pathname));
  return user;
}
