// The users page body: create a user, the users table, and the signed-in admin's own API tokens.
'use client';
import { useMe } from '@/lib/client/auth';
import { CreateUserForm } from './create-user-form';
import { TokensPanel } from './tokens-panel';
import { UsersTable } from './users-table';
import './users.css';

export function UsersView() {
  const me = useMe();
  return (
    <div className="users-view">
      <UsersTable meId={me.data?.id} />
      <CreateUserForm />
      <TokensPanel />
    </div>
  );
}
