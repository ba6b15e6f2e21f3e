// The header every page shares: the product name and the navigation, with the current page
// marked (aria-current) so it is announced, not only coloured.
'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { UserMenu } from '@/components/auth/user-menu';

const LINKS = [
  { href: '/', label: 'Chat' },
  { href: '/rules', label: 'Rules' },
  { href: '/runs', label: 'Runs' },
  { href: '/audit', label: 'Audit' },
  { href: '/users', label: 'Users' },
] as const;

export function AppHeader() {
  const pathname = usePathname();
  return (
    <header className="app-header">
      <Link href="/" className="app-header__brand">
        Gatehouse
      </Link>
      <nav aria-label="Main" className="app-header__nav">
        {LINKS.map((link) => {
          const current = link.href === '/' ? pathname === '/' : pathname.startsWith(link.href);
          return (
            <Link key={link.href} href={link.href} aria-current={current ? 'page' : undefined} className="app-header__link">
              {link.label}
            </Link>
          );
        })}
      </nav>
      <UserMenu />
    </header>
  );
}
