// Every user with their role (a select that applies at once), status, and the actions: disable or
// enable, reset the password, create a one-time sign-in link, sign out everywhere. Results and refusals (e.g. "at least
// one enabled admin must remain") are announced in one notice above the table.
'use client';
import { useState } from 'react';
import { Card, CardHeader, Notice, Table } from '@/components/ui';
import {
  sessionsEndedMessage,
  useCreateLoginLink,
  useEndUserSessions,
  useUpdateUser,
  useUsers,
  type User,
  type UserChange,
} from '@/lib/client/users';
import { LoginLinkDialog } from './login-link-dialog';
import { ResetPasswordDialog } from './reset-password-dialog';
import { UserRow } from './user-row';

type Message = { tone: 'success' | 'danger'; text: string };

export function UsersTable({ meId }: { meId: string | undefined }) {
  const users = useUsers();
  const update = useUpdateUser();
  const linkFor = useCreateLoginLink();
  const endSessions = useEndUserSessions();
  const [message, setMessage] = useState<Message | null>(null);
  const [resetting, setResetting] = useState<User | null>(null);
  const [link, setLink] = useState<{ user: User; url: string; expiresAt: string } | null>(null);

  async function change(user: User, changeSet: UserChange, done: string) {
    setMessage(null);
    try {
      await update.mutateAsync({ id: user.id, ...changeSet });
      setMessage({ tone: 'success', text: done });
    } catch (error) {
      setMessage({ tone: 'danger', text: `${user.username}: ${(error as Error).message}` });
    }
  }

  async function createLink(user: User) {
    setMessage(null);
    try {
      const { path, expiresAt } = await linkFor.mutateAsync(user.id);
      setLink({ user, url: new URL(path, window.location.origin).toString(), expiresAt });
    } catch (error) {
      setMessage({ tone: 'danger', text: `${user.username}: ${(error as Error).message}` });
    }
  }

  async function signOutEverywhere(user: User) {
    setMessage(null);
    try {
      const { ended } = await endSessions.mutateAsync(user.id);
      setMessage({ tone: 'success', text: sessionsEndedMessage(user.username, ended) });
    } catch (error) {
      setMessage({ tone: 'danger', text: `${user.username}: ${(error as Error).message}` });
    }
  }

  const busy = update.isPending || linkFor.isPending || endSessions.isPending;
  return (
    <>
      <Card aria-labelledby="users-heading">
        <CardHeader id="users-heading" title="Users" />
        {message && <Notice tone={message.tone}>{message.text}</Notice>}
        {users.isPending && <p className="users-muted">Loading users…</p>}
        {users.isError && <Notice tone="danger">Could not load the users: {users.error.message}</Notice>}
        {users.data && (
          <Table caption="Users" className="users-table users-cards">
            <thead>
              <tr>
                <th scope="col">Username</th>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="ui-visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((user) => (
                <UserRow
                  key={user.id}
                  user={user}
                  isMe={user.id === meId}
                  busy={busy}
                  onRole={(role) =>
                    change(user, { role }, `${user.username} is now ${role === 'admin' ? 'an' : 'a'} ${role}.`)
                  }
                  onDisabled={(disabled) =>
                    change(
                      user,
                      { disabled },
                      disabled
                        ? `${user.username} is disabled and signed out everywhere.`
                        : `${user.username} is enabled again.`,
                    )
                  }
                  onResetPassword={() => setResetting(user)}
                  onLoginLink={() => createLink(user)}
                  onSignOutEverywhere={() => signOutEverywhere(user)}
                />
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <ResetPasswordDialog
        user={resetting}
        onClose={(done) => {
          if (done && resetting)
            setMessage({
              tone: 'success',
              text: `Set a new password for ${resetting.username}; their other sessions ended.`,
            });
          setResetting(null);
        }}
      />
      <LoginLinkDialog link={link} onClose={() => setLink(null)} />
    </>
  );
}
