// /users: admins manage users (create, role, disable, password, sign-in links); everyone here also
// manages their own API tokens. Guarded on the server: nobody → /login, non-admin → no access.
import type { Metadata } from 'next';
import { RequireRole } from '@/app/_auth/require-role';
import { UsersView } from '@/components/users/users-view';

export const metadata: Metadata = { title: 'Users' };

export default function UsersPage() {
  return (
    <RequireRole action="users:manage" pathname="/users">
      <h1 className="page-title">Users</h1>
      <p className="page-lead">
        Who may sign in and what their role allows: admins edit the policy and manage users, approvers decide any
        run&apos;s approvals, users start runs and decide their own.
      </p>
      <UsersView />
    </RequireRole>
  );
}
