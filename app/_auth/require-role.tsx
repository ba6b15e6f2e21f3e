// A server component guard for a page (or a whole route group's layout): nobody signed in →
// /login?next=<pathname>; signed in without `action` → a "no access" page (the 403 of a page);
// else the children.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { can, type Action } from '@/lib/auth';
import { requirePageUser } from './page-auth';

export async function RequireRole({
  action,
  pathname,
  children,
}: {
  action: Action;
  pathname: string;
  children: ReactNode;
}) {
  const user = await requirePageUser(pathname);
  if (!can(user, action)) return <NoAccess role={user.role} />;
  return <>{children}</>;
}

export function NoAccess({ role }: { role: string }) {
  return (
    <>
      <h1 className="page-title">You do not have access to this page</h1>
      <p className="page-lead">
        Your role ({role}) does not allow it. Ask an admin if you need access, or go back to the{' '}
        <Link href="/">chat</Link>.
      </p>
    </>
  );
}
