// Users as server state (admins only): the list, create, change (role, disabled, name), reset a
// password, issue a one-time sign-in link, sign a user out everywhere. Every change refreshes the list.
'use client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from './api';
import type { Role, User } from '@/lib/contract';

export type { User };

export interface NewUser {
  username: string;
  displayName?: string;
  role: Role;
  password?: string;
}

export interface UserChange {
  role?: Role;
  disabled?: boolean;
  displayName?: string;
}

export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: 'user', label: 'user' },
  { value: 'approver', label: 'approver' },
  { value: 'admin', label: 'admin' },
];

export const userKeys = {
  all: ['users'] as const,
  list: () => ['users', 'list'] as const,
};

const userUrl = (id: string) => `/api/users/${encodeURIComponent(id)}`;

export const fetchUsers = async () => (await apiFetch<{ items: User[] }>('/api/users', { cache: 'no-store' })).items;

/** Blank optional fields are left out (the API refuses an empty display name or password). */
export function newUserBody(input: { username: string; displayName: string; role: Role; password: string }): NewUser {
  return {
    username: input.username.trim(),
    role: input.role,
    ...(input.displayName.trim() ? { displayName: input.displayName.trim() } : {}),
    ...(input.password ? { password: input.password } : {}),
  };
}

export const createUser = (input: NewUser) => apiFetch<{ user: User }>('/api/users', { method: 'POST', json: input });
export const updateUser = ({ id, ...change }: UserChange & { id: string }) =>
  apiFetch<{ user: User }>(userUrl(id), { method: 'PATCH', json: change });
export const resetPassword = ({ id, password }: { id: string; password: string }) =>
  apiFetch<{ user: User }>(`${userUrl(id)}/password`, { method: 'POST', json: { password } });
export const createLoginLink = (id: string) =>
  apiFetch<{ path: string; expiresAt: string }>(`${userUrl(id)}/login-link`, { method: 'POST' });
/** Ends every session of the user; answers how many ended. */
export const endUserSessions = (id: string) =>
  apiFetch<{ ended: number }>(`${userUrl(id)}/sessions`, { method: 'DELETE' });

export function useUsers() {
  return useQuery({ queryKey: userKeys.list(), queryFn: fetchUsers });
}

function useUserMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: userKeys.all }) });
}

export const useCreateUser = () => useUserMutation(createUser);
export const useUpdateUser = () => useUserMutation(updateUser);
export const useResetPassword = () => useUserMutation(resetPassword);
export const useCreateLoginLink = () => useUserMutation(createLoginLink);
export const useEndUserSessions = () => useUserMutation(endUserSessions);

/** What the users page says after signing someone out everywhere. */
export function sessionsEndedMessage(username: string, ended: number): string {
  return `${username} is signed out everywhere (${ended === 0 ? 'no session was open' : ended === 1 ? '1 session ended' : `${ended} sessions ended`}).`;
}
