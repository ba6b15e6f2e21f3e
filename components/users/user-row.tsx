// One user in the users table. Every control's accessible name carries the username, so a screen
// reader (and a test) can tell the rows' buttons apart.
'use client';
import { Badge, Button } from '@/components/ui';
import type { Role } from '@/lib/contract';
import { ROLE_OPTIONS, type User } from '@/lib/client/users';

interface Props {
  user: User;
  isMe: boolean;
  busy: boolean;
  onRole: (role: Role) => void;
  onDisabled: (disabled: boolean) => void;
  onResetPassword: () => void;
  onLoginLink: () => void;
  onSignOutEverywhere: () => void;
}

export function UserRow({
  user,
  isMe,
  busy,
  onRole,
  onDisabled,
  onResetPassword,
  onLoginLink,
  onSignOutEverywhere,
}: Props) {
  return (
    <tr>
      <th scope="row" className="users-rowhead">
        {user.username}
        {isMe && <span className="users-muted"> (you)</span>}
      </th>
      <td data-label="Name">{user.displayName}</td>
      <td data-label="Role">
        <select
          className="ui-input users-table__select"
          aria-label={`Role of ${user.username}`}
          value={user.role}
          disabled={busy}
          onChange={(e) => onRole(e.target.value as Role)}
        >
          {ROLE_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </td>
      <td data-label="Status">
        <Badge tone={user.disabled ? 'danger' : 'success'}>{user.disabled ? 'disabled' : 'active'}</Badge>
        {!user.hasPassword && <p className="users-muted">no password</p>}
      </td>
      <td>
        <div className="users-table__actions">
          <Button
            size="sm"
            variant={user.disabled ? 'secondary' : 'danger'}
            disabled={busy || isMe}
            title={isMe ? 'You cannot disable yourself here' : undefined}
            onClick={() => onDisabled(!user.disabled)}
            aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.username}`}
          >
            {user.disabled ? 'Enable' : 'Disable'}
          </Button>
          <Button size="sm" disabled={busy} onClick={onResetPassword} aria-label={`Reset password of ${user.username}`}>
            Reset password
          </Button>
          <Button
            size="sm"
            disabled={busy || user.disabled}
            onClick={onLoginLink}
            aria-label={`Create a sign-in link for ${user.username}`}
          >
            Sign-in link
          </Button>
          <Button
            size="sm"
            disabled={busy || user.disabled}
            onClick={onSignOutEverywhere}
            aria-label={`Sign out everywhere for ${user.username}`}
          >
            Sign out everywhere
          </Button>
        </div>
      </td>
    </tr>
  );
}
