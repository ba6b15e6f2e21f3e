// Beside the page guards: the header's links (lib/client/nav) agree with the server's permissions (lib/auth), which only app/ may see both of.
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '@/lib/auth/roles';
import { ROLES } from '@/lib/contract';
import { navLinksFor } from '@/lib/client/nav';

const asRole = (role: (typeof ROLES)[number]) => ({ permissions: [...PERMISSIONS[role]] });
const labels = (me: Parameters<typeof navLinksFor>[0]) => navLinksFor(me).map((l) => l.label);

describe('the navigation shows only what the user may open', () => {
  it.each([
    ['admin', ['Chat', 'Rules', 'Runs', 'Connect', 'Audit', 'Users', 'Servers']],
    ['approver', ['Chat', 'Runs', 'Connect', 'Audit']],
    ['user', ['Chat', 'Runs', 'Connect']],
  ] as const)('%s sees %j', (role, expected) => {
    expect(labels(asRole(role))).toEqual(expected);
  });

  it('signed out (or not known yet): no page at all', () => {
    expect(navLinksFor(null)).toEqual([]);
    expect(navLinksFor(undefined)).toEqual([]);
  });
});
