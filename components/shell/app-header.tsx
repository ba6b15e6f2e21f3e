// The header every page shares: the product name and the navigation, with the current page
// marked (aria-current) so it is announced, not only coloured. Only pages the signed-in user may
// open are linked (lib/client/nav); signed out, there is nothing but the Sign in link.
'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { UserMenu } from '@/components/auth/user-menu';
import { PendingCount } from '@/components/inbox/pending-count';
import { useMe } from '@/lib/client/auth';
import { navLinksFor } from '@/lib/client/nav';

export function AppHeader() {
  const pathname = usePathname();
  const links = navLinksFor(useMe().data);
  return (
    <header className="app-header">
      <Link href="/" className="app-header__brand">
        Gatehouse
      </Link>
      <nav aria-label="Main" className="app-header__nav">
        {links.map((link) => {
          const current = link.href === '/' ? pathname === '/' : pathname.startsWith(link.href);
          return (
            <Link
              key={link.href}
              href={link.href}
              aria-current={current ? 'page' : undefined}
              className="app-header__link"
            >
              {link.label}
              {link.href === '/approvals' && <PendingCount />}
            </Link>
          );
        })}
      </nav>
      <UserMenu />
    </header>
  );
}
