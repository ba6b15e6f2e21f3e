// The main navigation as each user may use it: a page is linked only when the signed-in user's
// role may open it (the same action its page guard checks), and nobody signed in sees no page at
// all (only Sign in, from the user menu). The server checks anyway; this keeps dead ends off screen.
import type { AccessAction, Me } from '../contract';

export interface NavLink {
  href: string;
  label: string;
  /** What the page's guard (RequireRole) asks for. */
  action: AccessAction;
}

export const NAV_LINKS: readonly NavLink[] = [
  { href: '/', label: 'Chat', action: 'runs:start' },
  { href: '/rules', label: 'Rules', action: 'policy:edit' },
  { href: '/runs', label: 'Runs', action: 'runs:read:own' },
  { href: '/connect', label: 'Connect', action: 'tokens:manage:own' },
  { href: '/audit', label: 'Audit', action: 'audit:read' },
  { href: '/users', label: 'Users', action: 'users:manage' },
  { href: '/servers', label: 'Servers', action: 'servers:manage' },
];

/** The links `me` may follow; none while nobody (or not yet anybody known) is signed in. */
export function navLinksFor(me: Pick<Me, 'permissions'> | null | undefined): NavLink[] {
  if (!me) return [];
  const allowed = new Set(me.permissions);
  return NAV_LINKS.filter((link) => allowed.has(link.action));
}
