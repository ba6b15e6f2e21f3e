// The header's account corner: who is signed in (name and role) with Change password (this
// session stays), Sign out and Sign out everywhere (every session of mine ends, on every device),
// or a Sign in link. Signing out drops
// every cached query (lib/client/auth) and goes to /login, so no page keeps showing data it may
// no longer fetch.
'use client';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui';
import { useLogout, useLogoutEverywhere, useMe } from '@/lib/client/auth';
import { ChangePasswordDialog } from './change-password-dialog';
import { RoleBadge } from './role-badge';
import './auth.css';

export function UserMenu() {
  const me = useMe();
  const logout = useLogout();
  const everywhere = useLogoutEverywhere();
  const pathname = usePathname();
  const router = useRouter();
  const [changing, setChanging] = useState(false);
  const [changed, setChanged] = useState(false);

  if (me.isPending) return <div className="user-menu" aria-hidden="true" />;
  if (!me.data) {
    if (pathname === '/login') return null;
    return (
      <div className="user-menu">
        <Link
          href={pathname && pathname !== '/' ? `/login?next=${encodeURIComponent(pathname)}` : '/login'}
          className="app-header__link"
        >
          Sign in
        </Link>
      </div>
    );
  }

  async function signOut(all: boolean) {
    await (all ? everywhere : logout).mutateAsync();
    router.replace('/login');
  }
  const failed = logout.error ?? everywhere.error;
  const busy = logout.isPending || everywhere.isPending;

  const { displayName, username, role } = me.data;
  return (
    <div className="user-menu" role="group" aria-label="Account">
      <span className="user-menu__who">
        <span className="ui-visually-hidden">Signed in as </span>
        <span className="user-menu__name">{displayName}</span>
        {displayName !== username && <span className="user-menu__username">{username}</span>}
      </span>
      <RoleBadge role={role} />
      <Button
        size="sm"
        variant="ghost"
        onClick={() => {
          setChanged(false);
          setChanging(true);
        }}
      >
        Change password
      </Button>
      <Button size="sm" variant="ghost" onClick={() => signOut(false)} disabled={busy}>
        Sign out
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => signOut(true)}
        disabled={busy}
        title="End every session of yours, on every device (API tokens stay)"
      >
        Sign out everywhere
      </Button>
      <ChangePasswordDialog
        open={changing}
        onClose={(done) => {
          setChanging(false);
          setChanged(done);
        }}
      />
      {changed && (
        <span role="status" className="user-menu__done">
          Password changed. Your other sessions are signed out.
        </span>
      )}
      {failed && (
        <span role="alert" className="user-menu__error">
          Sign-out failed: {failed.message}
        </span>
      )}
    </div>
  );
}
